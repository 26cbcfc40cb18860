/** `GET /v1/sessions` and `DELETE /v1/sessions/:sessionID`: an admin sees who is signed in and ends a session, at every instance within a second. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authPaths, roleSchema, sessionListResponseSchema, type SessionListResponse } from '../../contract/session.js';
import type { Grants } from '../auth/grants.js';
import type { SessionManager } from '../auth/session-manager.js';
import { ApiProblem } from '../http/api-problem.js';
import type { RouteDoc } from '../http/route-catalog.js';

const iso = (ms: number) => new Date(ms).toISOString();

const listDoc: RouteDoc = {
  operationId: 'listSessions',
  summary: "People's open sessions (extension)",
  description:
    'For a signed-in admin: every open session of the account, newest first. The `sessionID` is a handle for revoking it, not the cookie.',
  responses: { '200': { description: 'Open sessions', json: sessionListResponseSchema } },
  problems: ['forbidden'],
};

const revokeDoc: RouteDoc = {
  operationId: 'revokeSession',
  summary: "End a person's session (extension)",
  description:
    'For a signed-in admin: ends the session; its browser is refused (401) at every instance within a second, and its streams end.',
  responses: { '204': { description: 'Ended' } },
  problems: ['forbidden', 'not_found', 'csrf_failed'],
};

const requireAdmin = (request: FastifyRequest) => {
  if (!request.principal.person?.roles.includes('admin'))
    throw new ApiProblem('forbidden', "Only a signed-in admin may see and end people's sessions.");
};

export const sessionsRoutes = async (app: FastifyInstance, { sessions }: { sessions: SessionManager }) => {
  app.get(authPaths.sessions(), { config: { doc: listDoc } }, async (request): Promise<SessionListResponse> => {
    requireAdmin(request);
    const open = await sessions.open();
    return {
      sessions: open.map((session) => ({
        sessionID: session.id_digest,
        person: { subject: session.subject, email: session.email, name: session.name },
        roles: roleSchema.array().parse((JSON.parse(session.grants) as Grants).roles),
        createdAt: iso(session.created_at),
        lastSeenAt: iso(session.last_seen_at),
        expiresAt: iso(session.expires_at),
      })),
    };
  });

  app.delete(
    `${authPaths.sessions()}/:sessionID`,
    { config: { doc: revokeDoc } },
    async (request: FastifyRequest<{ Params: { sessionID: string } }>, reply) => {
      requireAdmin(request);
      const { sessionID } = request.params;
      if (!(await sessions.end(sessionID, 'revoked'))) throw new ApiProblem('not_found', `No open session "${sessionID}".`);
      request.log.info(
        { audit: { action: 'revoke-session', actor: request.principal.person?.email, sessionID } },
        'a session was revoked',
      );
      return reply.code(204).send();
    },
  );
};
