/** Raised for input the library cannot represent at all (a cyclic object). Everything else degrades to a defined result. */
export class CliffInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliffInputError";
  }
}
