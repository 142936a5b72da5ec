/** The recall loop: the tool offered in each API's shape, and the model's recalls answered in the client's place. */
export { withRecallTool, recallToolOf } from "./offer.js";
export { recallLoop, continued, MAX_RECALL_ROUNDS, type LoopContext, type RoundRefused } from "./loop.js";
export { recallApiOf, type RecallRoute } from "./apis.js";
export { recallPlan, plainAnswers, type RecallPlan, type Rounds } from "./plan.js";
