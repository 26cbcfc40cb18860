/**
 * Checks against Asterisk's published ARI description (`ari-description.json`, transcribed from the
 * `rest-api/api-docs` of Asterisk's sources): a request's parameters against its operation, an
 * answer and an event against their models (every required field there, every field known, each of
 * its type and allowed values). The double runs every request, answer and event through these.
 */
import { readFileSync } from 'node:fs';
import { parseAriDate } from '../../server/providers/asterisk/ari-messages.js';

interface Property {
  type: string;
  required: boolean;
  values?: string[];
}
interface Model {
  properties: Record<string, Property>;
  subTypes?: string[];
}
interface Parameter {
  name: string;
  paramType: 'path' | 'query' | 'body';
  required: boolean;
  dataType: string;
  values?: string[];
  allowMultiple?: boolean;
}
interface Operation {
  method: string;
  path: string;
  nickname: string;
  responseClass: string;
  parameters: Parameter[];
  errors: { code: number; reason: string }[];
  upgrade?: string;
}

const description = JSON.parse(readFileSync(new URL('./ari-description.json', import.meta.url), 'utf8')) as {
  models: Record<string, Model>;
  operations: Operation[];
};

/** The models an event type is checked against: the base message, the event, and its own. */
const eventModels = (type: string): Model[] | undefined => {
  const own = description.models[type];
  const event = description.models.Event as Model;
  if (!own || !event.subTypes?.includes(type)) return undefined;
  return [description.models.Message as Model, event, own];
};

const checkValue = (type: string, value: unknown, path: string, property?: Property): string[] => {
  const list = /^List\[(.+)\]$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) return [`${path} must be a list`];
    return value.flatMap((item, i) => checkValue(list[1] as string, item, `${path}[${i}]`));
  }
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return [`${path} must be a string`];
      return property?.values && !property.values.includes(value) ? [`${path} "${value}" is not one of ${property.values.join(', ')}`] : [];
    case 'int':
    case 'long':
      return Number.isInteger(value) ? [] : [`${path} must be an integer`];
    case 'double':
      return typeof value === 'number' ? [] : [`${path} must be a number`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path} must be a boolean`];
    case 'Date':
      return typeof value === 'string' && parseAriDate(value) !== undefined ? [] : [`${path} must be an ARI date`];
    case 'object':
      return typeof value === 'object' && value !== null ? [] : [`${path} must be an object`];
    default: {
      const model = description.models[type];
      if (!model) return [`${path} has type ${type}, which the description does not define`];
      return checkObject([model], value, path);
    }
  }
};

const checkObject = (models: readonly Model[], value: unknown, path: string): string[] => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path} must be an object`];
  const properties: Record<string, Property> = Object.assign({}, ...models.map((model) => model.properties));
  const fields = value as Record<string, unknown>;
  const violations: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (fields[name] === undefined) {
      if (property.required) violations.push(`${path}.${name} is required`);
      continue;
    }
    violations.push(...checkValue(property.type, fields[name], `${path}.${name}`, property));
  }
  for (const name of Object.keys(fields)) if (!(name in properties)) violations.push(`${path}.${name} is not in the model`);
  return violations;
};

/** What is wrong with an object as an instance of the model (none: nothing). */
export const checkModel = (model: string, value: unknown): string[] => checkValue(model, value, model);

/** What is wrong with an event as the description defines its type. */
export const checkEvent = (event: unknown): string[] => {
  const type = typeof event === 'object' && event !== null ? (event as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return ['event has no type'];
  const models = eventModels(type);
  if (!models) return [`event type ${type} is not an Event of the description`];
  return checkObject(models, event, type);
};

const operationFor = (method: string, path: string): { operation: Operation; pathParams: Record<string, string> } | undefined => {
  const relative = path.replace(/^\/ari/, '');
  for (const operation of description.operations) {
    if (operation.method !== method) continue;
    const names: string[] = [];
    const pattern = new RegExp(`^${operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(relative);
    if (match) return { operation, pathParams: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] as string)])) };
  }
  return undefined;
};

const checkParameter = (parameter: Parameter, value: string, where: string): string[] => {
  const at = `${where} ${parameter.name}`;
  if ((parameter.dataType === 'int' || parameter.dataType === 'long') && !/^-?\d+$/.test(value)) return [`${at} must be an integer, not "${value}"`];
  if (parameter.dataType === 'boolean' && !['true', 'false'].includes(value)) return [`${at} must be true or false, not "${value}"`];
  const values = parameter.allowMultiple ? value.split(',') : [value];
  if (parameter.values && values.some((one) => !parameter.values?.includes(one))) return [`${at} "${value}" is not one of ${parameter.values.join(', ')}`];
  return [];
};

/** What is wrong with a request as the description defines its operation. */
export const checkRequest = (method: string, path: string, query: Record<string, string>): string[] => {
  const found = operationFor(method, path);
  if (!found) return [`${method} ${path} is no operation of the description`];
  const { operation, pathParams } = found;
  const where = `${method} ${operation.path}`;
  const violations: string[] = [];
  for (const parameter of operation.parameters) {
    const value = parameter.paramType === 'path' ? pathParams[parameter.name] : parameter.paramType === 'query' ? query[parameter.name] : undefined;
    if (value === undefined) {
      if (parameter.required && parameter.paramType !== 'body') violations.push(`${where} needs ${parameter.name}`);
      continue;
    }
    violations.push(...checkParameter(parameter, value, where));
  }
  const known = new Set(operation.parameters.filter((parameter) => parameter.paramType === 'query').map((parameter) => parameter.name));
  for (const name of Object.keys(query)) if (!known.has(name)) violations.push(`${where} has no parameter ${name}`);
  return violations;
};

/** Statuses any ARI request may answer besides its operation's own: authentication, and Asterisk's own failures. */
const GENERAL_STATUSES = new Set([401, 403, 500, 501, 503]);

/** What is wrong with an answer to a request, as the description defines the operation's result and errors. */
export const checkAnswer = (method: string, path: string, status: number, body: unknown): string[] => {
  const found = operationFor(method, path);
  if (!found) return [];
  const { operation } = found;
  if (status >= 400) {
    if (GENERAL_STATUSES.has(status) || operation.errors.some((error) => error.code === status)) return [];
    return [`${method} ${operation.path} answered ${status}, which the description does not list`];
  }
  if (operation.responseClass === 'void') return body === undefined ? [] : [`${method} ${operation.path} answers no body`];
  return checkValue(operation.responseClass, body, `${method} ${operation.path}`);
};
