/** The OpenAPI 3.1 document, assembled from the routes' own descriptions and the contract's zod schemas. */
import { z } from 'zod';
import { problemCodes, type ProblemCode } from '../../contract/problem.js';
import type { CatalogEntry, ResponseDoc, RouteDoc } from './route-catalog.js';

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

const withoutHeader = ({ $schema: _schema, $id: _id, ...rest }: Record<string, unknown>) => rest;

/** `/a/:b` to `/a/{b}`. */
const openapiPath = (pattern: string) => pattern.replace(/:([A-Za-z]+)/g, '{$1}');

const pathParameters = (pattern: string) =>
  [...pattern.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));

/**
 * The contract's schemas that carry an id (`.meta({ id })`) become components, referring to each
 * other; a route refers to them by `$ref`, and writes any other schema out in place.
 */
class Components {
  readonly schemas: Record<string, Record<string, unknown>>;

  constructor() {
    const { schemas } = z.toJSONSchema(z.globalRegistry, { uri: COMPONENT, unrepresentable: 'any' });
    this.schemas = Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutHeader(schema as Record<string, unknown>)]));
  }

  ref(schema: z.ZodType) {
    const id = z.globalRegistry.get(schema)?.id;
    if (id !== undefined) return { $ref: COMPONENT(id) };
    return withoutHeader(z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>);
  }
}

/** What the authentication hook may answer on any route that needs a token. */
const AUTHENTICATION_PROBLEMS: ProblemCode[] = ['unauthorized', 'rate_limited', 'too_many_concurrent_requests', 'internal'];

const problemResponses = (codes: ProblemCode[]) => {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) byStatus.set(problemCodes[code], [...(byStatus.get(problemCodes[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: list.map((code) => `\`${code}\``).join(', '),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      },
    ]),
  );
};

const response = (doc: ResponseDoc, components: Components) => ({
  description: doc.description,
  ...(doc.headers ? { headers: doc.headers } : {}),
  ...(doc.json ? { content: { 'application/json': { schema: components.ref(doc.json) } } } : {}),
  ...(doc.content ? { content: { [doc.content.type]: { schema: { type: 'string', description: doc.content.description } } } } : {}),
});

const operation = (url: string, doc: RouteDoc, components: Components) => ({
  operationId: doc.operationId,
  summary: doc.summary,
  ...(doc.description ? { description: doc.description } : {}),
  ...(doc.public ? { security: [] } : {}),
  parameters: [...pathParameters(url), ...(doc.parameters ?? [])],
  ...(doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: components.ref(doc.body) } } } } : {}),
  ...(doc.otherBody
    ? { requestBody: { required: true, content: { [doc.otherBody.type]: { schema: { type: 'object', description: doc.otherBody.description } } } } }
    : {}),
  responses: {
    ...Object.fromEntries(Object.entries(doc.responses).map(([status, r]) => [status, response(r, components)])),
    ...problemResponses([...(doc.public ? [] : AUTHENTICATION_PROBLEMS), ...(doc.problems ?? [])]),
  },
});

export const buildOpenApiDocument = (routes: readonly (CatalogEntry & { doc: RouteDoc })[]) => {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, doc } of routes) {
    const path = (paths[openapiPath(url)] ??= {});
    path[method.toLowerCase()] = operation(url, doc, components);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Callboard call-control API',
      version: '1.0.0',
      description:
        'List the active calls of a provider within an application, and place outbound calls. ' +
        'Errors are RFC 9457 problem details with a stable `code`.',
    },
    // A machine's bearer token, or a signed-in browser's session cookie (its name takes `__Host-` behind https).
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'callboard-session',
          description: "A person's session, set at sign-in (`/auth/sign-in`); state-changing requests also need the `x-csrf-token` header and this site's Origin.",
        },
      },
      schemas: components.schemas,
    },
  };
};
