/** `GET /v1/me`: the account, applications, providers and permissions a token may use, and whom it places calls as. */
import type { FastifyInstance } from 'fastify';
import { meResponseSchema, type MeResponse } from '../../contract/me.js';
import { paths, type ProviderScope } from '../../contract/paths.js';
import { canSeeApplication, canSeeProvider } from '../auth/token-index.js';
import type { ServiceConfig } from '../config/config-schema.js';
import type { RouteDoc } from '../http/route-catalog.js';
import type { ProviderRuntimes } from '../runtime/provider-runtimes.js';

const meDoc: RouteDoc = {
  operationId: 'me',
  summary: 'What this token, or the signed-in person, may see (extension)',
  description:
    "The account, the applications and providers the token may see, its permissions, and, for an agent's token, " +
    '`subscriberIDs`: the only subscribers it may place calls as. Each provider says whether it can end a live call ' +
    '(`canEndCalls`) and listen to one silently (`canListen`), both with the `calls:control` permission, and whether a ' +
    "subscriber's browser can be their phone (`softphone`).",
  responses: {
    '200': {
      description: "Account, applications, providers, permissions, and the subscribers an agent's token places calls as",
      json: meResponseSchema,
    },
  },
};

export const meRoute = async (app: FastifyInstance, { config, registry }: { config: ServiceConfig; registry: ProviderRuntimes }) => {
  const abilities = (scope: ProviderScope) => {
    const phoneSystem = registry.get(scope)?.phoneSystem;
    return { canEndCalls: phoneSystem?.endCall !== undefined, canListen: phoneSystem?.listening !== undefined, softphone: phoneSystem?.softphone !== undefined };
  };
  app.get(paths.me(), { config: { doc: meDoc } }, async (request): Promise<MeResponse> => {
    const principal = request.principal;
    const account = config.accounts.find((a) => a.id === principal.accountID);
    if (!account) throw new Error(`token "${principal.tokenName}" names a missing account`);
    return {
      account: { id: account.id, name: account.name },
      applications: account.applications
        .filter((application) => canSeeApplication(principal, account.id, application.id))
        .map((application) => ({
          id: application.id,
          name: application.name,
          providers: application.providers
            .filter((provider) =>
              canSeeProvider(principal, { accountID: account.id, applicationID: application.id, providerID: provider.id }, () => provider.queues.map((queue) => queue.id)),
            )
            .map((provider) => ({
            id: provider.id,
            name: provider.name,
            type: provider.type,
            ...abilities({ accountID: account.id, applicationID: application.id, providerID: provider.id }),
          })),
        }))
        .filter((application) => principal.view === undefined || application.providers.length > 0),
      permissions: [...principal.permissions].sort(),
      ...(principal.subscribers === '*' || principal.subscribers.size === 0 ? {} : { subscriberIDs: [...principal.subscribers] }),
      ...(principal.person
        ? { person: { subject: principal.person.subject, email: principal.person.email, name: principal.person.name }, roles: [...principal.person.roles] }
        : {}),
      ...(principal.view ? { queueIDs: [...principal.view.queues].sort() } : {}),
    };
  });
};
