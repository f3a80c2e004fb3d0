/** The portal's seven tabs (platform §2), in order, and the plan catalogue (ruling 11) after them. */
export const TABS = ['overview', 'schools', 'subscriptions', 'users', 'analytics', 'system', 'security', 'plans'] as const;
export type Tab = (typeof TABS)[number];
