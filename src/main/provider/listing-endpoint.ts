/**
 * One page of the merchant-wide transaction listing (section 4.3). Reading the whole listing,
 * which moves while it is read, is pagination.ts's job.
 */
import {
  invalidRequest,
  endpointUrl,
  secretHeaders,
  type CallOptions,
  type EndpointContext,
} from './endpoint-context';
import type { ProviderRequest } from './http-exchange';
import type { TransactionPage } from './schemas';

export interface TransactionPageRequest {
  readonly offset: number;
  readonly limit: number;
}

/** Interface section 8.5 gives no maximum page size; this keeps one page's body reasonable. */
const MAX_LIST_LIMIT = 10_000;

/** Section 4.3, one page. */
export async function listTransactions(
  context: EndpointContext,
  page: TransactionPageRequest,
  options: CallOptions = {},
): Promise<TransactionPage> {
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) {
    throw invalidRequest(context, 'list', 'offset', 'offset must be a whole number, 0 or more');
  }
  if (!Number.isSafeInteger(page.limit) || page.limit < 1 || page.limit > MAX_LIST_LIMIT) {
    throw invalidRequest(
      context,
      'list',
      'limit',
      `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}`,
    );
  }
  const request: ProviderRequest = {
    operation: 'list',
    method: 'GET',
    url: endpointUrl(context.baseUrl, '/virtual/transactions', {
      offset: String(page.offset),
      limit: String(page.limit),
    }),
    headers: secretHeaders(context, 'list'),
  };
  const answer = await context.read(request, context.schemas.listResponse, options.signal);
  // A row the schema refused is set aside with its place in the whole listing, not the page.
  return answer.unreadable.length === 0
    ? answer
    : {
        ...answer,
        unreadable: answer.unreadable.map((row) => ({
          ...row,
          position: page.offset + row.position,
        })),
      };
}
