/** Turns a zod error into field errors that name each offending field and say what was wrong. */
import type { z } from 'zod';
import type { FieldError, ProblemCode } from '../../contract/problem.js';
import { ApiProblem } from './api-problem.js';

export const fieldErrors = (error: z.ZodError, unknownKey: string): FieldError[] =>
  error.issues.flatMap((issue) => {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ field: at ? `${at}.${key}` : key, message: unknownKey }));
    return [{ field: at, message: issue.message }];
  });

export const zodProblem = (code: ProblemCode, what: string, error: z.ZodError, unknownKey = 'is not a known field'): ApiProblem => {
  const errors = fieldErrors(error, unknownKey);
  const summary = errors.map((e) => (e.field ? `${e.field} ${e.message}` : e.message)).join('; ');
  return new ApiProblem(code, `${what}: ${summary}.`, { errors });
};
