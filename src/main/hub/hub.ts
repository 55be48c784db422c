/**
 * The core's side of the shop hub: the paired counters (in the environment's database, next to
 * the sales they make), the one-time pairing codes (in memory) and each counter's last contact
 * (in memory, written at most every CONTACT_WRITE_MS). The LAN listener is a shell's; it
 * attaches itself as a LanControl.
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
import {
  getPairedCounter,
  listPairedCounterTokenHashes,
  listPairedCounters,
  recordPairedCounterContact,
} from '#main/store/paired-counters-repo';
import {
  checkedCounterName,
  counterOfToken,
  cryptoRandom,
  hasTokenShape,
  identityOf,
  pairCounter,
  TOKEN_ALPHABET,
  TOKEN_LENGTH,
  tokenSha256,
  revokeCounter,
  updateCounter,
  type RandomBytes,
} from './counter-registry';
import { HubError } from './hub-errors';
import type { Hub, LanControl } from './hub-types';
import { createPairingCodes, PairingError } from './pairing-codes';

/** A counter's last contact reaches the database at most this often (each request touches it). */
export const CONTACT_WRITE_MS = 30_000;

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
};

/** Last contacts of one database's counters: the newest seen, and the newest written. */
interface ContactBook {
  readonly db: Db;
  readonly seen: Map<number, number>;
  readonly written: Map<number, number>;
}

export function createHub(deps: HubDeps): CoreHub {
  const { now, logger } = deps;
  const random = deps.random ?? cryptoRandom;
  const codes = createPairingCodes({ now, random });
  const revokedListeners = new Set<(counterId: number) => void>();
  let control: LanControl | null = null;
  let contacts: ContactBook | null = null;

  // Tokens issued before a restart are kept as hashes only: the log asks about any token-shaped
  // stretch of a line (hashed, compared in memory), so that no counter can log another's token.
  let tokenHashes: { readonly db: Db; readonly hashes: Set<string> } | null = null;
  function tokenHashesOf(db: Db): Set<string> {
    if (tokenHashes?.db !== db) {
      tokenHashes = { db, hashes: new Set(listPairedCounterTokenHashes(db)) };
    }
    return tokenHashes.hashes;
  }
  deps.redactor.addRecognizer({
    length: TOKEN_LENGTH,
    alphabet: TOKEN_ALPHABET,
    isSecret(candidate) {
      let hashes: Set<string>;
      try {
        hashes = tokenHashesOf(deps.db());
      } catch {
        return false; // no database now (switching, closed): no counter can call either
      }
      return hashes.size > 0 && hashes.has(tokenSha256(candidate));
    },
  });

  /** The contact book of the database in use (a switch of environment starts a new one). */
  function contactBook(db: Db): ContactBook {
    if (contacts?.db !== db) contacts = { db, seen: new Map(), written: new Map() };
    return contacts;
  }

  function lanRunning(): LanControl {
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

  function flush(): void {
    if (!contacts) return;
    const { db, seen, written } = contacts;
    for (const [counterId, at] of seen) {
      if ((written.get(counterId) ?? -Infinity) < at) {
        recordPairedCounterContact(db, counterId, at);
        written.set(counterId, at);
      }
    }
  }

  return {
    attachLan(next) {
      control = next;
    },

    view(): HubView {
      const db = deps.db();
      const seen = contactBook(db).seen;
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
    },

    createPairingLink(name) {
      const lan = lanRunning();
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
        deps.redactor.addSecret(paired.token);
        tokenHashesOf(db).add(tokenSha256(paired.token));
        return paired;
      });
      contactBook(db).seen.set(result.counter.id, now());
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
      const db = deps.db();
      const book = contactBook(db);
      const at = now();
      book.seen.set(counterId, at);
      const written = book.written.get(counterId);
      if (written === undefined || at - written >= CONTACT_WRITE_MS) {
        recordPairedCounterContact(db, counterId, at);
        book.written.set(counterId, at);
      }
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

    current(counterId): CounterIdentity | null {
      const row = getPairedCounter(deps.db(), counterId);
      return row && row.revokedAt === null ? identityOf(row) : null;
    },

    flush,
  };
}
