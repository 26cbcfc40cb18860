/** Tries a connection before keeping it: `/v1/me` where offered, else one list of the typed scope. */
import { listCallsResponseSchema } from '../../../../contract/call-record.js';
import { meResponseSchema } from '../../../../contract/me.js';
import { paths } from '../../../../contract/paths.js';
import { ApiClient } from '../../../lib/api/api-client.js';
import { ApiError } from '../../../lib/api/api-error.js';
import type { ManualScope, TokenConnection } from '../../../lib/connection.js';

export type ConnectionCheck = { ok: true; connection: TokenConnection } | { ok: false; error: ApiError; needsScope: boolean };

export const checkConnection = async (connection: TokenConnection, manualScope?: ManualScope): Promise<ConnectionCheck> => {
  const client = new ApiClient(connection);
  try {
    if (manualScope) {
      const [providerID] = manualScope.providerIDs;
      if (!providerID) return { ok: false, needsScope: true, error: new ApiError('validation_failed', 'Name at least one provider.') };
      await client.get(paths.listCalls({ accountID: manualScope.accountID, applicationID: manualScope.applicationID, providerID }), listCallsResponseSchema);
      return { ok: true, connection: { ...connection, manualScope } };
    }
    await client.get(paths.me(), meResponseSchema);
    return { ok: true, connection };
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError('http_error', String(error));
    // A service without /v1/me answers 404 (or 405): the scope has to be typed by hand.
    const needsScope = !manualScope && (apiError.status === 404 || apiError.status === 405 || apiError.code === 'invalid_response');
    return { ok: false, error: apiError, needsScope };
  }
};

/** Plain words for what went wrong while connecting. */
export const connectionMessage = (error: ApiError): string => {
  switch (error.code) {
    case 'unauthorized':
      return 'The service refused this token: it is unknown, mistyped or revoked.';
    case 'forbidden':
      return 'This token is valid but may not read calls (it lacks the calls:read permission).';
    case 'not_found':
      return 'Nothing was found there: check the account, application and provider IDs.';
    case 'network_unreachable':
    case 'cors_blocked':
      return error.detail;
    case 'rate_limited':
      return 'The service is limiting requests from this token; wait a moment and try again.';
    case 'invalid_response':
      return `The address answered, but not like a Callboard-compatible service: ${error.detail}`;
    default:
      return `${error.detail}`;
  }
};
