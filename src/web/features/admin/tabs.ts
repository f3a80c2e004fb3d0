/** The portal's seven tabs (platform §2), in order. */
export const TABS = ['overview', 'schools', 'subscriptions', 'users', 'analytics', 'system', 'security'] as const;
export type Tab = (typeof TABS)[number];
