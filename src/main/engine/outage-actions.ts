import type { OutageAction } from '#shared/sales';

/** A sale event's cause for each thing a cashier records on an outage sale. */
export const OUTAGE_ACTION_CAUSES: Readonly<Record<OutageAction, string>> = {
  goods_given: 'outage-goods-given',
  keep_waiting: 'outage-keep-waiting',
};
