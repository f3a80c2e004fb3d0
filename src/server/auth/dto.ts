import { z } from 'zod';
import type { UserRow } from './queries';

export const userDto = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(['school_admin', 'master_admin']),
  schoolId: z.string().nullable(),
  hasSeenOnboarding: z.boolean(),
  isFirstLogin: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserDto = z.infer<typeof userDto>;

export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role: row.role,
    schoolId: row.schoolId,
    hasSeenOnboarding: row.hasSeenOnboarding,
    isFirstLogin: row.isFirstLogin,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
  };
}

export const errorDto = z.object({ error: z.string() }).passthrough();
export const messageDto = z.object({ message: z.string() });
