/** Why a file is not imported, in the analyst's words (no file content). */
export class ImportRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportRefusal';
  }
}
