/**
 * Every route says what it is where it is registered (`config.doc`), and the catalog collects
 * them as they register: the OpenAPI document and the 405 answers are built from it, so neither
 * is a second list kept by hand.
 */
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import type { ProblemCode } from '../../contract/problem.js';

export interface ParameterDoc {
  name: string;
  in: 'query' | 'header';
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

export interface ResponseDoc {
  description: string;
  /** The contract's schema of the body; one with a `meta({ id })` becomes a shared component. */
  json?: z.ZodType;
  /** A body that is not JSON, e.g. `text/event-stream`, described in words. */
  content?: { type: string; description?: string };
  headers?: Record<string, { description?: string; schema: Record<string, unknown> }>;
}

export interface RouteDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Anyone may call it; other routes need a bearer token (their 401 and 429 are added). */
  public?: boolean;
  /** Query and header parameters; path parameters are read from the route's pattern. */
  parameters?: ParameterDoc[];
  /** The JSON request body's schema, from the contract. */
  body?: z.ZodType;
  /** A request body that is not JSON (a provider's form-encoded callback), described in words. */
  otherBody?: { type: string; description: string };
  responses: Record<string, ResponseDoc>;
  /** The problems this route may answer besides those of authentication. */
  problems?: ProblemCode[];
  /** Said in a 405 answer to another method on this path, e.g. where that method is served. */
  otherMethods?: (path: string) => string;
}

/** A route that is deliberately left out of the API description, and why. */
export interface HiddenRoute {
  hidden: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc | HiddenRoute;
  }
  interface FastifyInstance {
    routeCatalog: RouteCatalog;
  }
}

export interface CatalogEntry {
  method: HTTPMethods;
  url: string;
  doc: RouteDoc | HiddenRoute | undefined;
}

export const isDocumented = (entry: CatalogEntry): entry is CatalogEntry & { doc: RouteDoc } =>
  entry.doc !== undefined && !('hidden' in entry.doc);

export class RouteCatalog {
  /**
   * The options objects themselves: an `onRoute` hook of a plugin's own scope (which runs after
   * this one) may still mark its routes, so the description is read when asked for.
   */
  private readonly routes: RouteOptions[] = [];

  add(route: RouteOptions): void {
    this.routes.push(route);
  }

  all(): CatalogEntry[] {
    return this.routes.flatMap((route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const doc = (route.config as { doc?: RouteDoc | HiddenRoute } | undefined)?.doc;
      // Fastify adds a HEAD route for each GET; the GET's description covers it.
      return methods.filter((method) => method !== 'HEAD').map((method) => ({ method, url: route.url, doc }));
    });
  }

  documented(): (CatalogEntry & { doc: RouteDoc })[] {
    return this.all().filter(isDocumented);
  }

  /** Routes registered with neither a description nor a reason to hide: each one is a defect. */
  undocumented(): CatalogEntry[] {
    return this.all().filter((entry) => entry.doc === undefined);
  }

  /** Paths of documented routes with the methods each serves, in registration order. */
  methodsByPath(): Map<string, HTTPMethods[]> {
    const byPath = new Map<string, HTTPMethods[]>();
    for (const entry of this.documented()) byPath.set(entry.url, [...(byPath.get(entry.url) ?? []), entry.method]);
    return byPath;
  }
}

/** Marks every route registered in this plugin's scope (and below) as left out of the API description. */
export const hideRoutes = (app: FastifyInstance, why: string): void => {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, doc: { hidden: why } };
  });
};

/** Registered first, at the root, so its hook sees every route of every scope registered after it. */
export const routeCatalogPlugin = fp(async (app: FastifyInstance) => {
  const catalog = new RouteCatalog();
  app.decorate('routeCatalog', catalog);
  app.addHook('onRoute', (route) => catalog.add(route));
});
