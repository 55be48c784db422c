/**
 * What the till says while the provider cannot be reached, in one place for the header and the
 * tray. It claims only what holds: the provider's listing shows every payment once the link is
 * back (interface section 4.3), so payments made meanwhile show then.
 */
export const PROVIDER_UNREACHABLE_WORDS =
  "Provider can't be reached: payments will show when it is back";

/** The tray tooltip's short form (Windows cuts tooltips at 127 characters). */
export const PROVIDER_UNREACHABLE_SHORT = "provider can't be reached";
