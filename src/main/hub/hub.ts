/**
 * The core's side of the shop hub: the paired counters (in the environment's database, next to
 * the sales they make), the one-time pairing codes (in memory) and each counter's last contact
 * (counter-contacts.ts). Counter tokens are kept out of the log by token-redaction.ts. The
 * LAN listener is a shell's; it attaches itself as a LanControl.
 */
import {
  DEFAULT_LAN_PORT,
  type CounterIdentity,
  type HubView,
  type LanListenerView,
} from '#shared/hub';
import type { Logger } from '#main/logging/logger';
import type { Redactor } from '#main/logging/redact';
import type { Db } from '#main/store/database';
import { getPairedCounter, listPairedCounters } from '#main/store/paired-counters-repo';
import {
  checkedCounterName,
  counterOfToken,
  cryptoRandom,
  hasTokenShape,
  identityOf,
  pairCounter,
  revokeCounter,
  updateCounter,
  type RandomBytes,
} from './counter-registry';
import { HubError } from './hub-errors';
import type { Hub, LanControl } from './hub-types';
import { createCounterContacts } from './counter-contacts';
import { createPairingCodes, PairingError } from './pairing-codes';
import { redactCounterTokens } from './token-redaction';

export { CONTACT_WRITE_MS } from './counter-contacts';

export interface HubDeps {
  /**
   * The active environment's database: counters are paired per environment, like the sales
   * they make and the report that names them. Throws while the till switches environments.
   */
  readonly db: () => Db;
  readonly now: () => number;
  /** The hub's own till id (Settings): no counter may share its reference prefix. */
  readonly hubTillId: () => string;
  readonly logger: Logger;
  /**
   * The log's redactor: every pairing code and counter token is registered the moment it exists
   * (a token known only by its hash since a restart, the moment it is presented), so that no log
   * line carries one, whoever writes it there (a counter's render error report, say).
   */
  readonly redactor: Pick<Redactor, 'addSecret' | 'addRecognizer'>;
  readonly random?: RandomBytes;
}

/** The Hub with the upkeep only the core calls. */
export interface CoreHub extends Hub {
  /** Writes the last contacts not written yet (before the database closes). */
  flush(): void;
}

const LAN_OFF: LanListenerView = {
  enabled: false,
  running: false,
  url: null,
  port: DEFAULT_LAN_PORT,
  fingerprint: null,
  problem: null,
  addresses: [],
  setForThisRun: false,
};

/** The LAN listener, when it runs and counters can reach the hub; a HubError otherwise. */
function runningLan(control: LanControl | null): LanControl {
  if (!control) {
    throw new HubError(
      'HUB_LAN_OFF',
      'Turn on the LAN listener first: counters reach the hub through it.',
    );
  }
  const lan = control.view();
  if (!lan.running || lan.fingerprint === null) {
    throw new HubError(
      'HUB_LAN_OFF',
      lan.problem
        ? `Turn on the LAN listener first (${lan.problem}).`
        : 'Turn on the LAN listener first: counters reach the hub through it.',
    );
  }
  return control;
}

/** The hub as Settings shows it: the listener and every paired counter with its last contact. */
function hubView(db: Db, seen: ReadonlyMap<number, number>, control: LanControl | null): HubView {
  const connected = control?.connectedCounterIds() ?? new Set<number>();
  return {
    available: control !== null,
    lan: control?.view() ?? LAN_OFF,
    counters: listPairedCounters(db).map((row) => {
      const inMemory = seen.get(row.id) ?? null;
      return {
        ...identityOf(row),
        pairedAt: row.pairedAt,
        lastContactAt:
          inMemory !== null && (row.lastContactAt === null || inMemory > row.lastContactAt)
            ? inMemory
            : row.lastContactAt,
        connected: row.revokedAt === null && connected.has(row.id),
        revokedAt: row.revokedAt,
      };
    }),
  };
}

export function createHub(deps: HubDeps): CoreHub {
  const { now, logger } = deps;
  const random = deps.random ?? cryptoRandom;
  const codes = createPairingCodes({ now, random });
  const revokedListeners = new Set<(counterId: number) => void>();
  let control: LanControl | null = null;
  const contacts = createCounterContacts();
  const tokens = redactCounterTokens(deps.redactor, deps.db);

  return {
    attachLan(next) {
      control = next;
    },

    view(): HubView {
      const db = deps.db();
      return hubView(db, contacts.seen(db), control);
    },

    createPairingLink(name) {
      const lan = runningLan(control);
      const issued = codes.issue(checkedCounterName(name));
      deps.redactor.addSecret(issued.code);
      const fingerprint = lan.view().fingerprint ?? '';
      logger.info({ counterName: issued.name }, 'pairing link made');
      return {
        url: lan.pairingUrl(issued.code),
        name: issued.name,
        expiresAt: issued.expiresAt,
        fingerprint,
      };
    },

    pair(code) {
      if (!hasTokenShape(code)) throw new PairingError('PAIRING_UNKNOWN');
      const db = deps.db();
      const result = codes.redeem(code, (name) => {
        const paired = pairCounter(db, { name, hubTillId: deps.hubTillId(), now: now() }, random);
        tokens.issued(db, paired.token);
        return paired;
      });
      contacts.note(db, result.counter.id, now());
      logger.info(
        { counterId: result.counter.id, tillId: result.counter.tillId },
        'counter paired',
      );
      return result;
    },

    resolveToken(token) {
      const owner = counterOfToken(deps.db(), token);
      // A real token (live or revoked) is a secret from now on, if it was not already.
      if (owner.kind !== 'unknown') deps.redactor.addSecret(token);
      return owner.kind === 'counter' ? { kind: 'counter', counter: identityOf(owner.row) } : owner;
    },

    touch(counterId) {
      contacts.touch(deps.db(), counterId, now());
    },

    update(counterId, change) {
      const counter = updateCounter(deps.db(), counterId, change, deps.hubTillId());
      logger.info({ counterId, tillId: counter.tillId }, 'counter changed');
    },

    revoke(counterId) {
      const db = deps.db();
      if (!revokeCounter(db, counterId, now())) return; // revoked already: nothing new to tell
      logger.info({ counterId }, 'counter revoked');
      for (const listener of revokedListeners) {
        try {
          listener(counterId);
        } catch (error) {
          logger.error({ err: error, counterId }, 'a revoked-counter listener failed');
        }
      }
    },

    onRevoked(listener) {
      revokedListeners.add(listener);
      return () => void revokedListeners.delete(listener);
    },

    async setLanEnabled(enabled) {
      if (!control) {
        throw new HubError(
          'HUB_UNAVAILABLE',
          'This copy of Transfer Till has no LAN listener, so it cannot host counters.',
        );
      }
      await control.setEnabled(enabled);
    },

    moveLan: (address) => (control ? control.moveTo(address) : Promise.resolve(null)),

    current(counterId): CounterIdentity | null {
      const row = getPairedCounter(deps.db(), counterId);
      return row && row.revokedAt === null ? identityOf(row) : null;
    },

    flush: () => contacts.flush(),
  };
}
