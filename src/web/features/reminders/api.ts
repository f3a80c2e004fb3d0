import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageChannel, ReminderSettings, RequestedChannel } from '@/domain/reminders';
import { api } from '@/web/lib/request';

export interface SendResult {
  queued: Array<{ studentId: string; channel: MessageChannel }>;
  skipped: Array<{ studentId: string; studentName: string; reason: string }>;
}

export interface ReminderPreview {
  studentId: string;
  studentName: string;
  amount: string;
  linkUrl: string;
  text: string;
  shareUrl: string | null;
  shareRefusal: string | null;
  channels: Array<{ channel: MessageChannel; to: string | null; allowed: boolean; reason: string | null }>;
}

export interface MessageEntry {
  id: string;
  at: string;
  channel: MessageChannel;
  to: string;
  status: 'queued' | 'sending' | 'sent' | 'delivered' | 'failed' | 'shared';
  error: string | null;
  linkUrl: string | null;
  origin: 'single' | 'bulk' | 'schedule' | 'share';
  sentAt: string | null;
  deliveredAt: string | null;
}

export interface Defaulter {
  id: string;
  name: string;
  className: string;
  section: string;
  rollNumber: number;
  outstanding: string;
}

export interface ScheduleSettings extends ReminderSettings {
  lastRunMonth: string | null;
  lastRunAt: string | null;
  lastRunSummary: { queued: number; skipped: number } | null;
  nextRunDate: string | null;
  channelsAvailable: MessageChannel[];
}

export const remindersApi = {
  send: (body: { studentIds: string[]; channel: RequestedChannel }) => api.post<SendResult>('/api/reminders/send', body),
  preview: (studentId: string) => api.post<ReminderPreview>('/api/reminders/preview', { studentId }),
  share: (studentId: string) => api.post<MessageEntry>('/api/reminders/share', { studentId }),
  messages: (studentId: string) => api.get<{ messages: MessageEntry[] }>(`/api/students/${encodeURIComponent(studentId)}/messages`),
  defaulters: (filter: { className?: string; section?: string }) => {
    const q = new URLSearchParams(Object.entries(filter).filter(([, v]) => v) as Array<[string, string]>);
    return api.get<{ students: Defaulter[] }>(`/api/reminders/defaulters${q.size ? `?${q}` : ''}`);
  },
  settings: () => api.get<ScheduleSettings>('/api/settings/reminders'),
  saveSettings: (body: ReminderSettings) => api.put<ScheduleSettings>('/api/settings/reminders', body),
};

const MESSAGES_KEY = 'student-messages';
export const messagesQuery = (studentId: string) =>
  queryOptions({
    queryKey: [MESSAGES_KEY, studentId],
    queryFn: () => remindersApi.messages(studentId),
    // a queued message turns sent (or failed) within seconds: look again while any is on its way
    refetchInterval: (q) => (q.state.data?.messages.some((m) => m.status === 'queued' || m.status === 'sending') ? 3_000 : false),
  });

export const settingsQuery = queryOptions({ queryKey: ['reminder-settings'], queryFn: remindersApi.settings });

export function useInvalidateMessages() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] });
}

export function useSendReminders() {
  const invalidate = useInvalidateMessages();
  return useMutation({ mutationFn: remindersApi.send, onSuccess: () => invalidate() });
}

export function useLogShare() {
  const invalidate = useInvalidateMessages();
  return useMutation({ mutationFn: remindersApi.share, onSuccess: () => invalidate() });
}

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: remindersApi.saveSettings, onSuccess: (data) => queryClient.setQueryData(settingsQuery.queryKey, data) });
}
