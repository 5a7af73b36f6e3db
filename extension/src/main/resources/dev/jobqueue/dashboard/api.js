// fetch wrapper for the admin API: JSON in and out, the CSRF header, readable errors.

const base = new URL('admin/', document.baseURI);

/** An error answer of the API; message is what the error banner shows. */
class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** A query string ("?a=1&b=2") of the non-empty entries of params, or "". */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value != null && value !== '') search.set(name, value);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A path segment, URL-encoded. */
export const seg = encodeURIComponent;

/**
 * Calls the API at path (relative to admin/) and returns the parsed JSON answer, or null when there is none.
 * POST and DELETE send X-Requested-By; body, when given, is sent as JSON.
 */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Requested-By'] = 'jobqueue-dashboard';
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(new URL(path, base), {
      method, headers, credentials: 'same-origin', cache: 'no-store',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, `Cannot reach the server: ${e.message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new ApiError(response.status, errorMessage(response, text));
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(response.status, `HTTP ${response.status}: the answer is not JSON (signed out? reload the page)`);
  }
}

function errorMessage(response, text) {
  if (response.status === 401) return 'Not signed in (HTTP 401): reload the page to sign in';
  let detail = response.statusText;
  try {
    const error = JSON.parse(text)?.error;
    if (typeof error === 'string' && error) detail = error;
  } catch {
    // not JSON: the status text stands
  }
  return `HTTP ${response.status}: ${detail || 'request failed'}`;
}
