import { useEffect, useState } from 'react';
import { useBridgeCall } from '../../hooks/use-bridge-call';
import type { OutagePolicy } from '#shared/sales';
import type { Settings } from '#shared/settings-schema';
import type { SettingsView, StandingAccountView } from '#shared/views';
import {
  nairaText,
  parseNaira,
  parseNumber,
  useSettingsSection,
  validationErrors,
} from './settings-form';

export interface ShopDraft {
  readonly name: string;
  readonly tillId: string;
  readonly cashiers: readonly string[];
  readonly timeZone: string;
  readonly dayCutoffHour: string;
  /** Naira as typed, e.g. "5000000" or "2500.50". */
  readonly maxSale: string;
  readonly otherIncome: boolean;
  /** Naira as typed; blank (or 0) flags nothing. */
  readonly flagAbove: string;
  /** Selling through an outage: the shop's policy, and the owner's choice. */
  readonly outagePolicy: OutagePolicy;
  readonly outageByChoice: boolean;
}

export const CASHIERS = 'shop.cashiers';
export const OTHER_INCOME = 'report.otherIncome';
export const FLAG_ABOVE = 'standingAccounts.flagAboveKobo';
export const OUTAGE_POLICY = 'outage.policy';
export const OUTAGE_BY_CHOICE = 'outage.allowByChoice';

function draftOf(settings: Settings): ShopDraft {
  const flag = settings.standingAccounts.flagAboveKobo;
  return {
    name: settings.shop.name,
    tillId: settings.shop.tillId,
    cashiers: settings.shop.cashiers,
    timeZone: settings.timeZone,
    dayCutoffHour: String(settings.dayCutoffHour),
    maxSale: nairaText(settings.maxSaleKobo),
    otherIncome: settings.report.otherIncome,
    flagAbove: flag === 0 ? '' : nairaText(flag),
    outagePolicy: settings.outage.policy,
    outageByChoice: settings.outage.allowByChoice,
  };
}

/** The limit typed, 0 when blank (off), or null when it is not an amount. */
export function parseFlagAbove(text: string): number | null {
  return text.trim() === '' ? 0 : parseNaira(text);
}

/** The typed numbers, and the words for those that are not numbers yet. */
function numbersOf(draft: ShopDraft) {
  const cutoff = parseNumber(draft.dayCutoffHour);
  const maxSaleKobo = parseNaira(draft.maxSale);
  const flagAboveKobo = parseFlagAbove(draft.flagAbove);
  const localErrors: Record<string, string> = {};
  if (cutoff === null) localErrors.dayCutoffHour = 'A whole hour from 0 to 23';
  if (maxSaleKobo === null) {
    localErrors.maxSaleKobo = 'Enter an amount in Naira, e.g. 5000000 or 2500.50';
  }
  if (flagAboveKobo === null) {
    localErrors[FLAG_ABOVE] = 'Enter an amount in Naira, e.g. 50000 or 2500.50, or leave it blank';
  }
  return { cutoff, maxSaleKobo, flagAboveKobo, localErrors };
}

/**
 * The Shop page's one form: the shop, the till, its cashiers, the business day, the largest sale
 * and how the end-of-day report treats money no till asked for.
 */
export function useShopForm(settings: Settings, onSaved: (view: SettingsView) => void) {
  const [draft, setDraft] = useState<ShopDraft>(() => draftOf(settings));
  const [newCashier, setNewCashier] = useState('');
  const [newCashierError, setNewCashierError] = useState<string | null>(null);
  const { cutoff, maxSaleKobo, flagAboveKobo, localErrors } = numbersOf(draft);
  const section = useSettingsSection({
    settings,
    patch: {
      shop: { name: draft.name, tillId: draft.tillId, cashiers: draft.cashiers },
      timeZone: draft.timeZone,
      report: { otherIncome: draft.otherIncome },
      outage: { policy: draft.outagePolicy, allowByChoice: draft.outageByChoice },
      ...(cutoff === null ? {} : { dayCutoffHour: cutoff }),
      ...(maxSaleKobo === null ? {} : { maxSaleKobo }),
      ...(flagAboveKobo === null ? {} : { standingAccounts: { flagAboveKobo } }),
    },
    localErrors,
    fields: [
      'shop.name',
      'shop.tillId',
      'timeZone',
      'dayCutoffHour',
      'maxSaleKobo',
      CASHIERS,
      OTHER_INCOME,
      FLAG_ABOVE,
      OUTAGE_POLICY,
      OUTAGE_BY_CHOICE,
    ],
    onSaved: (saved) => {
      setDraft(draftOf(saved.settings));
      onSaved(saved);
    },
  });

  function change<K extends keyof ShopDraft>(key: K, value: ShopDraft[K]): void {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function addCashier(): void {
    const name = newCashier.trim();
    if (name === '') {
      setNewCashierError('Type the cashier’s name first');
      return;
    }
    // The schema decides: the same words as on save, before the name joins the list.
    const cashiers = [...draft.cashiers, name];
    const errors = validationErrors(settings, { shop: { cashiers } });
    const problem = errors[`${CASHIERS}.${cashiers.length - 1}`] ?? errors[CASHIERS];
    if (problem) {
      setNewCashierError(problem);
      return;
    }
    change('cashiers', cashiers);
    setNewCashier('');
    setNewCashierError(null);
    section.edited(CASHIERS);
  }

  function removeCashier(index: number): void {
    change(
      'cashiers',
      draft.cashiers.filter((_, at) => at !== index),
    );
    section.edited(CASHIERS);
  }

  function typeNewCashier(value: string): void {
    setNewCashier(value);
    setNewCashierError(null);
  }

  return {
    draft,
    change,
    section,
    maxSaleKobo,
    flagAboveKobo,
    newCashier,
    newCashierError,
    typeNewCashier,
    addCashier,
    removeCashier,
  };
}

export type ShopForm = ReturnType<typeof useShopForm>;

/** The till's standing account for outages: undefined while asked, null when not made yet. */
export function useOutageAccount(): StandingAccountView | null | undefined {
  const { run } = useBridgeCall<StandingAccountView | null>();
  const [account, setAccount] = useState<StandingAccountView | null | undefined>(undefined);
  useEffect(() => {
    void run((bridge) => bridge.getOutageAccount({})).then((answer) => {
      if (answer?.ok) setAccount(answer.value);
    });
  }, [run]);
  return account;
}
