import { ProviderError } from './provider';

/**
 * Posts JSON to a provider and reads its JSON answer. Maps what can go wrong onto ProviderError:
 * a 4xx other than 408/429 is permanent (the request itself is wrong), anything else is retried.
 * The provider's answer is quoted, short, in the error: it is what the administrator needs to fix
 * a template or a key.
 */
export async function postJson(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    const reason = signal.aborted ? 'no answer in time' : error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new ProviderError(`could not reach ${new URL(url).host}: ${reason}`, false);
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    const permanent = response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429;
    throw new ProviderError(`${new URL(url).host} answered ${response.status}: ${excerpt(text)}`, permanent);
  }
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ProviderError(`${new URL(url).host} answered ${response.status} with something other than JSON: ${excerpt(text)}`, false);
  }
}

function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 299)}…` : oneLine || '(empty)';
}
