/** The part of pg-cursor (which ships no types) the export reads through. */
declare module 'pg-cursor' {
  import type { Submittable } from 'pg';

  export default class Cursor<Row = Record<string, unknown>> implements Submittable {
    constructor(text: string, values?: readonly unknown[]);
    submit: Submittable['submit'];
    read(rows: number): Promise<Row[]>;
    close(): Promise<void>;
  }
}
