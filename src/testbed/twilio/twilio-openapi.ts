/**
 * Twilio's own description of its REST API (`twilio_api_v2010.json`, Apache-2.0, shipped in the
 * `@twilio-alpha/mcp` package) as a check: the path, query and form fields of a request, and the
 * JSON body of an answer, against the operation the path names. Every mismatch is a violation.
 */
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Record<string, unknown>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation | unknown>>;
  components: { schemas: Record<string, unknown> };
}

const spec = createRequire(import.meta.url)('@twilio-alpha/mcp/twilio-oai/spec/json/twilio_api_v2010.json') as OpenApi;

const RFC_2822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/;
const E164 = /^\+[1-9]\d{1,14}$/;
const ENDPOINT = /^(\+[1-9]\d{1,14}|client:[A-Za-z0-9_.-]+|sip:[^\s@]+@[^\s]+|sim:[A-Za-z0-9]+)$/;

/** Twilio's own formats, as its documentation describes them. */
const twilioFormats = (ajv: Ajv): Ajv => {
  addFormats(ajv);
  ajv.addFormat('date-time-rfc-2822', RFC_2822);
  ajv.addFormat('phone-number', (value: string) => E164.test(value) || ENDPOINT.test(value));
  ajv.addFormat('endpoint', ENDPOINT);
  ajv.addFormat('http-method', /^(GET|POST)$/);
  ajv.addFormat('twiml', (value: string) => /^\s*(<\?xml[^>]*\?>\s*)?<Response>[\s\S]*<\/Response>\s*$/.test(value));
  // Twilio's own examples give `uri`, `first_page_uri`, `next_page_uri` relative to https://api.twilio.com, though
  // the schema says `format: uri`: a path from the API's root is taken as well as an absolute URL.
  ajv.addFormat('uri', (value: string) => /^\/[^\s]*$/.test(value) || URL.canParse(value));
  for (const name of ['uri-map', 'currency', 'iso-country-code', 'phone-number-capabilities', 'ice-server', 'int64']) ajv.addFormat(name, true);
  return ajv;
};

/** Strings in a form or a query are read as the schema's types, as Twilio reads them; an answer's JSON is taken as it is. */
const requests = twilioFormats(new Ajv({ strict: false, allErrors: true, coerceTypes: 'array' }));
const answers = twilioFormats(new Ajv({ strict: false, allErrors: true }));
requests.addSchema(spec as object, 'twilio');
answers.addSchema(spec as object, 'twilio');

/** `#/components/...` references made absolute, so a schema taken out of the document still finds them. */
const absolute = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"twilio#/components/')) as unknown;

const compiled = new Map<string, ValidateFunction>();
const validator = (ajv: Ajv, key: string, schema: unknown): ValidateFunction => {
  const cacheKey = `${ajv === requests ? 'request' : 'answer'}:${key}`;
  let validate = compiled.get(cacheKey);
  if (!validate) {
    validate = ajv.compile(absolute(schema) as object);
    compiled.set(cacheKey, validate);
  }
  return validate;
};

const describe = (where: string, validate: ValidateFunction): string[] =>
  (validate.errors ?? []).map((error) => `${where}${error.instancePath || ''} ${error.message ?? 'is not valid'}${error.params && 'additionalProperty' in error.params ? ` (${String(error.params.additionalProperty)})` : ''}`);

/** The operation a method and path name, with the path's parameters. */
const operationFor = (method: string, path: string): { template: string; operation: Operation; params: Record<string, string> } | undefined => {
  for (const [template, item] of Object.entries(spec.paths)) {
    const names: string[] = [];
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{([^}]+)\}/g, (_all, name: string) => (names.push(name), '([^/]+)'))}$`);
    const match = pattern.exec(path);
    const operation = item[method.toLowerCase()] as Operation | undefined;
    if (match && operation) return { template, operation, params: Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? '')])) };
  }
  return undefined;
};

export interface TwilioRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form?: URLSearchParams;
}

const fieldsOf = (params: URLSearchParams): Record<string, string | string[]> => {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return fields;
};

/** What is wrong with a request as Twilio describes the operation; the operation's ID when it is one. */
export const checkRequest = (request: TwilioRequest): { operationId?: string; violations: string[] } => {
  const found = operationFor(request.method, request.path);
  if (!found) return { violations: [`${request.method} ${request.path} is no operation of Twilio's API`] };
  const { operation, params } = found;
  const violations: string[] = [];
  for (const where of ['path', 'query'] as const) {
    const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === where);
    const schema = {
      type: 'object',
      properties: Object.fromEntries(declared.map((parameter) => [parameter.name, parameter.schema])),
      required: declared.filter((parameter) => parameter.required).map((parameter) => parameter.name),
      additionalProperties: false,
    };
    const validate = validator(requests, `${operation.operationId}:${where}`, schema);
    if (!validate(where === 'path' ? { ...params } : fieldsOf(request.query))) violations.push(...describe(`${operation.operationId} ${where}`, validate));
  }
  const form = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  if (form) {
    const validate = validator(requests, `${operation.operationId}:form`, { ...form, additionalProperties: false });
    if (!validate(fieldsOf(request.form ?? new URLSearchParams()))) violations.push(...describe(`${operation.operationId} form`, validate));
  } else if (request.form && [...request.form.keys()].length > 0) violations.push(`${operation.operationId} takes no form body`);
  return { operationId: operation.operationId, violations };
};

/** What is wrong with an answer's JSON body, as the operation describes its answers with this status. */
export const checkAnswer = (method: string, path: string, status: number, body: unknown): string[] => {
  const found = operationFor(method, path);
  if (!found) return [`${method} ${path} is no operation of Twilio's API`];
  const response = found.operation.responses[String(status)];
  if (!response) {
    // Twilio's description names no error answers; its errors share one documented shape.
    if (status >= 400) return isTwilioError(body) ? [] : [`${found.operation.operationId} ${status}: not Twilio's error shape (code, message, more_info, status)`];
    return [`${found.operation.operationId} answers no ${status}`];
  }
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [];
  const validate = validator(answers, `${found.operation.operationId}:${status}`, schema);
  return validate(body) ? [] : describe(`${found.operation.operationId} ${status} answer`, validate);
};

const isTwilioError = (body: unknown): boolean => {
  const error = body as Record<string, unknown> | null;
  return typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string' && typeof error.status === 'number';
};
