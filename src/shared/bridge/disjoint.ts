/** True when no key is in two of the groups; else names the first key found twice. */
export type Disjoint<
  Groups extends readonly object[],
  Seen extends PropertyKey = never,
> = Groups extends readonly [infer First extends object, ...infer Rest extends readonly object[]]
  ? [keyof First & Seen] extends [never]
    ? Disjoint<Rest, Seen | keyof First>
    : { readonly inTwoGroups: keyof First & Seen }
  : true;

export type AssertTrue<T extends true> = T;
