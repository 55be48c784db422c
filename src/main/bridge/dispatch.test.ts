import { describe, expect, it, vi } from 'vitest';
import {
  accessOf,
  channelNames,
  channels,
  type AccessLevel,
  type Caller,
  type ChannelName,
  type Handlers,
} from '#shared/bridge/contract';
import { accessRefusal, effectiveRole, IN_PROCESS_OWNER } from '#main/auth/caller';
import { bridgeErrorOf, dispatch } from './dispatch';
import { withOwnership, type OwnershipLookup } from '#main/auth/ownership';
import { AppError } from '#shared/errors';

const info = {
  name: 'Transfer Till',
  version: '1.0.0',
  shell: 'browser',
  environment: 'sandbox',
} as const;

function handlersWith(getAppInfo: Handlers['getAppInfo']): Handlers {
  const unexpected = Object.fromEntries(
    channelNames.map((name) => [
      name,
      () => {
        throw new Error(`unexpected call to ${name}`);
      },
    ]),
  );
  return { ...unexpected, getAppInfo } as unknown as Handlers;
}

/** Sale 1 is Ade's, made at the front counter; alert 1 is about it. Nothing else exists. */
const LOOKUP: OwnershipLookup = {
  sale: (id) => (id === 1 ? { cashier: 'Ade', tillId: 'till-frnt' } : undefined),
  alert: (id) => (id === 1 ? { saleId: 1 } : undefined),
};

/** Every handler answers its own name, so a test can see which ran and with which caller. */
function recordingHandlers() {
  const calls: { channel: ChannelName; caller: Caller }[] = [];
  const table = Object.fromEntries(
    channelNames.map((name) => [
      name,
      (_input: unknown, caller: Caller) => {
        calls.push({ channel: name, caller });
        return name;
      },
    ]),
  );
  return { handlers: withOwnership(table as unknown as Handlers, LOOKUP), calls };
}

const owner: Caller = { role: 'owner', name: null, sessionId: 's-owner', via: 'browser' };
const cashier: Caller = { role: 'cashier', name: 'Ade', sessionId: 's-ade', via: 'browser' };
const signedOut: Caller = { role: 'cashier', name: null, sessionId: 's-out', via: 'desktop' };
/** A paired counter whose session claims owner: still a cashier. */
const counter: Caller = { role: 'owner', name: 'Bola', sessionId: 's-counter', via: 'counter' };
const counterSignedOut: Caller = { role: 'owner', name: null, sessionId: 's-c2', via: 'counter' };
/** A counter whose token the hub resolved: the pairing is its sign-in, nobody signed in at it. */
const pairedCounter: Caller = {
  role: 'owner',
  name: null,
  sessionId: 's-c3',
  via: 'counter',
  counter: { id: 3, name: 'Front counter', tillId: 'till-frnt' },
};

const EXPECTED: Readonly<Record<string, Readonly<Record<AccessLevel, string | null>>>> = {
  owner: { open: null, cashier: null, owner: null },
  cashier: { open: null, cashier: null, owner: 'FORBIDDEN' },
  signedOut: { open: null, cashier: 'SIGNED_OUT', owner: 'FORBIDDEN' },
  counter: { open: null, cashier: null, owner: 'FORBIDDEN' },
  counterSignedOut: { open: null, cashier: 'SIGNED_OUT', owner: 'FORBIDDEN' },
  pairedCounter: { open: null, cashier: null, owner: 'FORBIDDEN' },
};
const CALLERS: Readonly<Record<string, Caller>> = {
  owner,
  cashier,
  signedOut,
  counter,
  counterSignedOut,
  pairedCounter,
};

/** A valid input for each channel, so that only the role decides (wrong input is tested below). */
const VALID_INPUT: Readonly<Partial<Record<ChannelName, unknown>>> = {
  signIn: { name: 'Ade' },
  unlockOwner: { pin: '1234' },
  setOwnerPin: { pin: '1234' },
  removeOwnerPin: { currentPin: '1234' },
  setCashierPin: { name: 'Ade', pin: null },
  createSale: { amount: '1500' },
  createOutageSale: { amount: '1500' },
  recordOutageAction: { saleId: 1, action: 'keep_waiting' },
  getSale: { saleId: 1 },
  cancelSale: { saleId: 1 },
  customerSaysPaid: { saleId: 1 },
  retrySale: { saleId: 1 },
  getReceipt: { saleId: 1 },
  acknowledgeAlert: { alertId: 1 },
  assignOutagePayment: { sessionId: '1'.repeat(30), saleId: 1 },
  createStandingAccount: { type: 'static-flex' },
  syncTransactions: { mode: 'incremental' },
  checkPayout: { amount: '100' },
  updateSettings: { patch: {} },
  setShopName: { name: 'Mama Put' },
  getSecrets: { environment: 'staging' },
  setSecret: { scope: 'staging', name: 'secretKey', value: null },
  testConnection: { environment: 'staging' },
  saveConnection: { environment: 'staging', profile: {} },
  checkEverything: { environment: 'staging' },
  resolveException: { key: 'k', action: 'goods_given' },
  reopenException: { key: 'k' },
  printReceipt: { saleId: 1 },
  reportRendererError: { screen: 'sale', message: 'boom' },
  setLanListener: { enabled: true },
  createPairingLink: { name: 'Front counter' },
  updateCounter: { counterId: 1, name: 'Back counter' },
  revokeCounter: { counterId: 1 },
};

describe('dispatch', () => {
  it('runs the handler with validated input', async () => {
    const result = await dispatch(
      handlersWith(() => info),
      'getAppInfo',
      {},
      vi.fn(),
      IN_PROCESS_OWNER,
    );
    expect(result).toEqual({ ok: true, value: info });
  });

  it.each([
    ['an unknown channel', 'deleteEverything', {}, 'UNKNOWN_CHANNEL'],
    ['a prototype key', '__proto__', {}, 'UNKNOWN_CHANNEL'],
    ['a non-string channel', 42, {}, 'UNKNOWN_CHANNEL'],
    ['extra fields', 'getAppInfo', { admin: true }, 'INVALID_INPUT'],
    ['a wrong type', 'getAppInfo', 'hello', 'INVALID_INPUT'],
  ])('answers %s with a clear error', async (_label, channel, input, code) => {
    const handler = vi.fn(() => info);
    const result = await dispatch(handlersWith(handler), channel, input, vi.fn(), IN_PROCESS_OWNER);
    expect(result).toMatchObject({ ok: false, error: { code } });
    expect(handler).not.toHaveBeenCalled();
  });

  /** Runs getAppInfo with a handler that throws `thrown`; the caller's answer and the log hook. */
  async function throwing(thrown: unknown) {
    const onUnexpected = vi.fn();
    const handler = () => {
      throw thrown;
    };
    const result = await dispatch(handlersWith(handler), 'getAppInfo', {}, onUnexpected, owner);
    return { result, onUnexpected };
  }

  it('passes on an AppError: its code, its message and its field', async () => {
    const { result, onUnexpected } = await throwing(
      new AppError('INVALID_AMOUNT', 'Enter an amount above ₦0.', { field: 'amount' }),
    );
    expect(result).toEqual({
      ok: false,
      error: { code: 'INVALID_AMOUNT', message: 'Enter an amount above ₦0.', field: 'amount' },
    });
    expect(onUnexpected).not.toHaveBeenCalled();
  });

  it.each([
    [
      'an Error whose code looks like ours (the old regex let it through)',
      Object.assign(new Error('The bank is still processing /src/main/secret.ts'), {
        code: 'STATUS_PENDING',
      }),
    ],
    [
      "Node's own coded error",
      Object.assign(new Error("ENOENT: no such file, open '/home/shop/secret.ts'"), {
        code: 'ENOENT',
      }),
    ],
    ['a TypeError', new TypeError('cannot read x of undefined at /src/main/secret.ts:12')],
    ['a string', 'secret.ts exploded'],
    ['a plain object shaped like an error', { code: 'FORBIDDEN', message: 'secret.ts says no' }],
    ['undefined', undefined],
  ])('answers INTERNAL for %s, logs it and never shows its message', async (_label, thrown) => {
    const { result, onUnexpected } = await throwing(thrown);
    expect(result).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'Something went wrong. The details are in the log.' },
    });
    expect(JSON.stringify(result)).not.toContain('secret.ts');
    expect(onUnexpected).toHaveBeenCalledWith(thrown, 'getAppInfo');
  });

  it('maps an error to the bridge shape by its class alone', () => {
    expect(bridgeErrorOf(new AppError('BUSY', 'Wait.'))).toEqual({
      code: 'BUSY',
      message: 'Wait.',
    });
    expect(bridgeErrorOf(Object.assign(new Error('x'), { code: 'BUSY' }))).toBeNull();
  });
});

describe('dispatch checks the caller against every channel of the table', () => {
  it('has a valid input for every channel that needs one (a new channel joins this table)', async () => {
    const { handlers } = recordingHandlers();
    for (const name of channelNames) {
      const result = await dispatch(handlers, name, VALID_INPUT[name] ?? {}, vi.fn(), owner);
      expect(result, name).toEqual({ ok: true, value: name });
    }
  });

  const cases = channelNames.flatMap((name) =>
    Object.keys(CALLERS).map((who) => [name, accessOf(name), who] as const),
  );
  it.each(cases)('%s (%s) called by %s', async (name, access, who) => {
    const caller = CALLERS[who] as Caller;
    const { handlers, calls } = recordingHandlers();
    const result = await dispatch(handlers, name, VALID_INPUT[name] ?? {}, vi.fn(), caller);
    const byLevel = EXPECTED[who]?.[access];
    expect(byLevel, 'an expectation for every caller and level').not.toBeUndefined();
    // A 'counter' call that carries no paired counter owns no sale (the access rule let it in).
    const refusal = byLevel ?? (who === 'counter' && channels[name].owns ? 'FORBIDDEN' : null);
    if (refusal === null) {
      expect(result).toEqual({ ok: true, value: name });
      expect(calls).toHaveLength(1);
      // Handlers see the role main acts on: a counter is a cashier whatever it claimed.
      expect(calls[0]?.caller).toEqual({ ...caller, role: effectiveRole(caller) });
    } else {
      expect(result).toMatchObject({ ok: false, error: { code: refusal } });
      expect(calls).toEqual([]);
    }
  });

  it('checks the role before the input, so a refused caller learns nothing of the schema', async () => {
    const { handlers } = recordingHandlers();
    const result = await dispatch(handlers, 'getSettings', { junk: true }, vi.fn(), cashier);
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('marks each channel with the level agreed for it', () => {
    const open = channelNames.filter((name) => accessOf(name) === 'open');
    const cashierLevel = channelNames.filter((name) => accessOf(name) === 'cashier');
    expect([...open].sort()).toEqual(
      [
        'getAppInfo',
        'getStatus',
        'getSession',
        'signIn',
        'signOut',
        'unlockOwner',
        'lock',
        // A render error on the sign-in screen is logged too.
        'reportRendererError',
      ].sort(),
    );
    expect([...cashierLevel].sort()).toEqual(
      [
        'createSale',
        'createOutageSale',
        'recordOutageAction',
        'getSale',
        'cancelSale',
        'customerSaysPaid',
        'retrySale',
        'getReceipt',
        'getPrintSetup',
        'printReceipt',
        'getActivity',
        'acknowledgeAlert',
      ].sort(),
    );
    // Everything else is the owner's, the default for a channel nobody marked.
    for (const name of [
      'getSettings',
      'getBalance',
      'exportCsv',
      'exportPdf',
      'listPrinters',
      'getZReport',
      'setSecret',
      'getHub',
      'setLanListener',
      'createPairingLink',
      'updateCounter',
      'revokeCounter',
      'getOutageAccount',
      'updateSettings',
      // The till never guesses whose an outage payment is, nor may a cashier.
      'assignOutagePayment',
    ] as const) {
      expect(accessOf(name)).toBe('owner');
    }
  });
});

describe('dispatch checks ownership before the handler runs', () => {
  const owned = channelNames.filter((name) => channels[name].owns !== undefined);
  const anotherTill: Caller = {
    ...pairedCounter,
    counter: { id: 4, name: 'Back', tillId: 'till-back' },
  };
  const anotherCashier: Caller = { ...cashier, name: 'Chidi' };

  it('has the sale and alert channels declared', () => {
    expect([...owned].sort()).toEqual(
      [
        'acknowledgeAlert',
        'assignOutagePayment',
        'cancelSale',
        'customerSaysPaid',
        'getReceipt',
        'getSale',
        'printReceipt',
        'recordOutageAction',
        'retrySale',
      ].sort(),
    );
  });

  it.each(owned)(
    '%s: refuses another till and another cashier, not found for a missing id',
    async (name) => {
      const item = channels[name].owns?.item === 'alert' ? 'ALERT' : 'SALE';
      const id = channels[name].owns?.field ?? '';
      for (const [caller, code] of [
        [anotherTill, 'FORBIDDEN'],
        [anotherCashier, 'FORBIDDEN'],
      ] as const) {
        const { handlers, calls } = recordingHandlers();
        const input = { ...(VALID_INPUT[name] as object), [id]: 1 };
        expect(await dispatch(handlers, name, input, vi.fn(), caller)).toMatchObject({
          ok: false,
          error: { code },
        });
        expect(calls).toEqual([]);
      }
      // An owner-only channel refuses a paired counter by its role first.
      const finders = channels[name].access === 'owner' ? [owner] : [owner, pairedCounter];
      for (const caller of finders) {
        const { handlers, calls } = recordingHandlers();
        const input = { ...(VALID_INPUT[name] as object), [id]: 2 };
        expect(await dispatch(handlers, name, input, vi.fn(), caller)).toMatchObject({
          ok: false,
          error: { code: `${item}_NOT_FOUND` },
        });
        expect(calls).toEqual([]);
      }
    },
  );
});

describe('the access rule', () => {
  it('treats a counter as a cashier whatever its session says', () => {
    expect(effectiveRole(counter)).toBe('cashier');
    expect(accessRefusal('owner', counter)).toBe('FORBIDDEN');
    expect(accessRefusal('cashier', counter)).toBeNull();
    expect(accessRefusal('cashier', counterSignedOut)).toBe('SIGNED_OUT');
    // A paired counter sells without a cashier sign-in, and never reaches an owner channel.
    expect(accessRefusal('cashier', pairedCounter)).toBeNull();
    expect(accessRefusal('owner', pairedCounter)).toBe('FORBIDDEN');
    expect(effectiveRole(pairedCounter)).toBe('cashier');
    expect(effectiveRole({ ...cashier, via: 'desktop' })).toBe('cashier');
    expect(effectiveRole(owner)).toBe('owner');
  });

  it('lets in-process calls (tests, benchmarks) act as the owner when they say so', async () => {
    const { handlers, calls } = recordingHandlers();
    expect(await dispatch(handlers, 'getSettings', {}, vi.fn(), IN_PROCESS_OWNER)).toEqual({
      ok: true,
      value: 'getSettings',
    });
    expect(calls[0]?.caller).toEqual(IN_PROCESS_OWNER);
  });
});
