/**
 * A virtual account's life at the provider: create it (section 4.1), then ask about its payment
 * (section 4.2). The answer must be about the reference asked, or it is refused.
 */
import { ProviderError, type ProviderOperation } from './errors';
import {
  invalidRequest,
  endpointUrl,
  secretHeaders,
  wrongAnswer,
  type CallOptions,
  type EndpointContext,
} from './endpoint-context';
import type { ProviderRequest } from './http-exchange';
import {
  REFERENCE_PATTERN,
  createVirtualAccountInputSchema,
  toCreateBody,
  type CreateVirtualAccountInput,
  type PaymentStatusRecord,
  type VirtualAccount,
} from './schemas';

/**
 * The status lookup as a value. The interface promises 200 only for a confirmed payment, but a
 * 200 whose record says 'failed', 'pending' or something new is reported as such, never as
 * confirmed: only `confirmed` means the money arrived.
 */
export type PaymentCheck =
  | { readonly kind: 'confirmed'; readonly record: PaymentStatusRecord }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'pending'; readonly record?: PaymentStatusRecord }
  | { readonly kind: 'failed'; readonly record: PaymentStatusRecord }
  | { readonly kind: 'unknown'; readonly record: PaymentStatusRecord };

function checkReference(
  context: EndpointContext,
  operation: ProviderOperation,
  reference: string,
): void {
  if (typeof reference !== 'string' || !REFERENCE_PATTERN.test(reference)) {
    throw invalidRequest(
      context,
      operation,
      'reference',
      'reference must be 1 to 100 characters of A-Z, a-z, 0-9, _ or -',
    );
  }
}

/** Section 4.1. Never retried: see client.ts. */
export async function createVirtualAccount(
  context: EndpointContext,
  input: CreateVirtualAccountInput,
  options: CallOptions = {},
): Promise<VirtualAccount> {
  const parsed = createVirtualAccountInputSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const field = unknownKey ?? String(issue?.path[0] ?? 'input');
    const message = issue?.message ?? 'invalid input';
    throw invalidRequest(
      context,
      'create',
      field,
      unknownKey !== undefined
        ? `${unknownKey} is not a field of a create request`
        : message.includes(field)
          ? message
          : `${field}: ${message}`,
    );
  }
  const request: ProviderRequest = {
    operation: 'create',
    method: 'POST',
    url: endpointUrl(context.baseUrl, '/virtual/new-account'),
    headers: { ...secretHeaders(context, 'create'), 'Content-Type': 'application/json' },
    body: JSON.stringify(toCreateBody(parsed.data)),
    subject: `reference ${input.reference}`,
  };
  const account = await context.send(request, context.schemas.createResponse, options.signal);
  if (account.externalReference !== input.reference) {
    throw wrongAnswer(
      context,
      'create',
      'MALFORMED_RESPONSE',
      `The provider answered the create request for reference ${input.reference} with an account for another reference. Do not use this account; report it to the provider's support team.`,
    );
  }
  return account;
}

/** Section 4.2. */
export async function getPaymentStatus(
  context: EndpointContext,
  reference: string,
  options: CallOptions = {},
): Promise<PaymentStatusRecord> {
  checkReference(context, 'status', reference);
  const request: ProviderRequest = {
    operation: 'status',
    method: 'GET',
    url: endpointUrl(context.baseUrl, '/virtual/status', { reference }),
    headers: secretHeaders(context, 'status'),
    subject: `reference ${reference}`,
  };
  const record = await context.read(request, context.schemas.statusResponse, options.signal);
  // A record for another reference must never confirm this sale.
  if (record.reference !== reference) {
    throw wrongAnswer(
      context,
      'status',
      'MALFORMED_RESPONSE',
      `The provider answered the status lookup for reference ${reference} with a record for another reference.`,
    );
  }
  return record;
}

/** Section 4.2 as a value: 404 and 409 are answers here, not faults. */
export async function checkPayment(
  context: EndpointContext,
  reference: string,
  options: CallOptions = {},
): Promise<PaymentCheck> {
  let record: PaymentStatusRecord;
  try {
    record = await getPaymentStatus(context, reference, options);
  } catch (error) {
    if (error instanceof ProviderError && error.code === 'STATUS_NOT_FOUND') {
      return { kind: 'not_found' };
    }
    if (error instanceof ProviderError && error.code === 'STATUS_PENDING') {
      return { kind: 'pending' };
    }
    throw error;
  }
  switch (record.status) {
    case 'success':
      return { kind: 'confirmed', record };
    case 'pending':
      return { kind: 'pending', record };
    case 'failed':
      return { kind: 'failed', record };
    case 'unknown':
      return { kind: 'unknown', record };
  }
}
