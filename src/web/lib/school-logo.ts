import { queryOptions } from '@tanstack/react-query';
import { getToken } from './auth-storage';
import { ApiError } from './request';

export const SCHOOL_LOGO_PATH = '/api/school/logo';

/**
 * The school's logo as an object URL for <img>, or null when the school has none. The image is
 * behind the session token, so it is fetched with it rather than linked. Receipts and Settings
 * share this query; uploading or removing the logo invalidates it.
 */
export const schoolLogoQuery = () =>
  queryOptions({
    queryKey: [SCHOOL_LOGO_PATH],
    queryFn: async (): Promise<string | null> => {
      const token = getToken();
      const res = await fetch(SCHOOL_LOGO_PATH, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (res.status === 404) return null;
      if (!res.ok) throw new ApiError(res.status, `The logo could not be loaded (${res.status})`);
      return URL.createObjectURL(await res.blob());
    },
    staleTime: 5 * 60_000,
  });
