/** Turns a zod error into field errors that name each offending field and say what was wrong. */
import type { z } from 'zod';
import type { FieldError, ProblemCode } from '../../contract/problem.js';
import { ApiProblem } from './api-problem.js';

/** A request with thousands of unknown parameters gets a problem of bounded size, not one naming each. */
export const MAX_FIELD_ERRORS = 20;
const MAX_FIELD_NAME = 100;

const shortName = (name: string) => (name.length > MAX_FIELD_NAME ? `${name.slice(0, MAX_FIELD_NAME)}…` : name);

export const fieldErrors = (error: z.ZodError, unknownKey: string): FieldError[] =>
  error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: shortName(at ? `${at}.${key}` : key), message: unknownKey }));
    return [{ field: shortName(at), message: issue.message }];
  });

export const zodProblem = (code: ProblemCode, what: string, error: z.ZodError, unknownKey = 'is not a known field'): ApiProblem => {
  const all = fieldErrors(error, unknownKey);
  const errors = all.slice(0, MAX_FIELD_ERRORS);
  const summary = errors.map((e) => (e.field ? `${e.field} ${e.message}` : e.message)).join('; ');
  const more = all.length > errors.length ? `; and ${all.length - errors.length} more` : '';
  return new ApiProblem(code, `${what}: ${summary}${more}.`, { errors });
};
