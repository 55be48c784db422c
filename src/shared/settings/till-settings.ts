/** Upkeep (sync, backups, what is kept), sounds and voice, receipts, the shop hub, the desktop app. */
import { z } from 'zod';
import { DEFAULT_LAN_HOST, DEFAULT_LAN_PORT } from '../hub';
import { PAPER_WIDTHS_MM } from '../printing';
import { httpsUrlOrEmpty, ipFamily } from './rules';
import { setting } from './setting';

const volume = (byDefault: number) =>
  z.number().min(0, 'From 0 to 1').max(1, 'From 0 to 1').default(byDefault);

const LAN_EFFECT =
  'while the LAN listener is on, it opens at the new address before the old one closes; a port another program holds (or an address this computer does not have) is refused next to the field and the old address keeps working; `--lan-host` / `--lan-port` win for that run';

export const UPKEEP_SETTINGS = {
  'sync.intervalMinutes': setting({
    schema: z
      .number()
      .int('Whole minutes only')
      .min(0, '0 (off) or more minutes')
      .max(1440, 'At most 1440 minutes (a day)')
      .default(15),
    label: 'Sync interval (minutes)',
    hint: "How often the provider's transaction list is fetched for the report; 0 turns it off.",
    page: 'upkeep',
    input: 'numeric',
    effect: 'at once (a sync now, then on the new interval)',
  }),
  'sync.onStartup': setting({
    schema: z.boolean().default(true),
    label: 'Sync when the app starts',
    page: 'upkeep',
  }),
  'backups.keep': setting({
    schema: z
      .number()
      .int('A whole number of backups')
      .min(1, 'Keep at least 1 backup')
      .max(60, 'At most 60 backups')
      .default(7),
    label: 'Backups to keep',
    hint: 'The app backs the database up daily and keeps this many (1 to 60).',
    page: 'upkeep',
    input: 'numeric',
  }),
  /** Callback bodies older than this are reduced to what reconciliation needs. */
  'retention.callbackBodyDays': setting({
    schema: z
      .number()
      .int('A whole number of days')
      .min(30, 'Keep callback bodies at least 30 days')
      .max(3650, 'At most 3650 days (ten years)')
      .default(90),
    label: 'Keep payment messages whole (days)',
    hint: "After this many days the bank's raw payment messages are cut down to what the report needs (30 to 3650). Sales and payments are always kept.",
    page: 'upkeep',
    input: 'numeric',
  }),
  /**
   * A reduced callback older than this goes when its inflow row holds all it held (same session
   * id, reference and amount, with a sale). Absent: 365 days, or the bodies' age when that is
   * longer (callbackRowDaysOf), so that a longer body age set on its own (Settings shows that
   * field only) never turns into an error.
   */
  'retention.callbackRowDays': setting({
    schema: z
      .number()
      .int('A whole number of days')
      .min(30, 'Keep callbacks at least 30 days')
      .max(3650, 'At most 3650 days (ten years)')
      .optional(),
    label: 'Keep reduced payment messages (days)',
    page: null,
  }),
  'sounds.enabled': setting({
    schema: z.boolean().default(true),
    label: 'Play a chime when a sale is paid',
    page: 'upkeep',
  }),
  'sounds.volume': setting({ schema: volume(0.6), label: 'Chime volume', page: 'upkeep' }),
  /** On by default: the amount said out loud is what cashiers trust. */
  'sounds.voice.enabled': setting({
    schema: z.boolean().default(true),
    label: 'Say the amount when a sale is paid',
    page: 'voice',
  }),
  'sounds.voice.volume': setting({ schema: volume(1), label: 'Voice volume', page: 'voice' }),
  /** A voice's voiceURI on the speaking computer; '' (or one it lacks) picks en-NG, en-GB, en-*. */
  'sounds.voice.voiceURI': setting({
    schema: z.string().max(300, 'At most 300 characters').default(''),
    label: 'Voice',
    page: 'voice',
  }),
  /** As the operating system names it; '' means every receipt goes through the dialog. */
  'printing.receiptPrinter': setting({
    schema: z.string().trim().max(200, 'At most 200 characters').default(''),
    label: 'Receipt printer',
    page: 'printing',
  }),
  'printing.paperWidthMm': setting({
    schema: z.literal(PAPER_WIDTHS_MM, { error: 'Choose 58 or 80 mm' }).default(80),
    label: 'Receipt paper width',
    page: 'printing',
  }),
} as const;

/** The shop hub (counters reach this till over its LAN listener) and the desktop app. */
export const HUB_AND_DESKTOP_SETTINGS = {
  /** Off by default: nothing listens beyond this computer until the owner says so. */
  'hub.lanEnabled': setting({
    schema: z.boolean().default(false),
    label: "Let counters on the shop's network connect",
    page: 'hub',
  }),
  // Fixed (not 0 = any free port): paired counters keep the address across restarts.
  'hub.lanPort': setting({
    schema: z
      .number()
      .int('A whole port number')
      .min(1024, 'A port from 1024 to 65535')
      .max(65535, 'A port from 1024 to 65535')
      .default(DEFAULT_LAN_PORT),
    label: 'LAN port',
    hint: 'From 1024 to 65535 (7443 unless you change it).',
    page: 'hub',
    input: 'numeric',
    effect: LAN_EFFECT,
  }),
  /** The address of this computer it listens on: 0.0.0.0 (every address) or one IP. */
  'hub.lanHost': setting({
    schema: z
      .string()
      .trim()
      .refine(
        (host) => ipFamily(host) !== 0,
        'Enter an address of this computer like 192.168.1.20, or choose "All addresses of this computer"',
      )
      .default(DEFAULT_LAN_HOST),
    label: 'LAN address',
    page: 'hub',
    input: 'decimal',
    effect: LAN_EFFECT,
  }),
  'desktop.startAtLogin': setting({
    schema: z.boolean().default(false),
    label: 'Start Transfer Till when I log in to this computer',
    hint: 'Payments show as paid only while the till runs. Closing the window while a sale waits, or while standing accounts exist, keeps the till running in the tray (by the clock); quit it from the tray menu.',
    page: 'desktop',
    applies: 'next-log-in',
  }),
  /** A generic update feed (electron-builder's latest*.yml); empty: never checks. */
  'desktop.updateUrl': setting({
    schema: httpsUrlOrEmpty
      .refine(
        (value) => value === '' || value.toLowerCase().startsWith('https://'),
        'The update address must start with https:// (updates are programs: never unencrypted)',
      )
      .default(''),
    label: 'Update address',
    hint: "The https address of the folder that holds the new version's latest.yml (ask whoever installs your tills). Leave it empty and the till never looks for updates.",
    page: 'desktop',
    input: 'url',
  }),
} as const;
