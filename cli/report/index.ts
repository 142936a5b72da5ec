/** `report`: one session's cliffs as an HTML page (data, the page, what each profile would keep). */
export { checkReport, reportCommand } from "./command.js";
