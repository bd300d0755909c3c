// The JSON API as the pages use it: fetch with the API's error body turned into an Error a page can show.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function getJSON(path, { token, signal } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers, signal });
  if (!response.ok) {
    let code = "http_error";
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = await response.json();
      if (body && body.error) ({ code, message } = body.error);
    } catch (_) { /* not JSON: keep the status line */ }
    throw new ApiError(response.status, code, message);
  }
  return response.json();
}

/** Lines of an application/x-ndjson answer as objects. */
export async function getNDJSON(path, { token, signal } = {}) {
  const headers = { Accept: "application/x-ndjson" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers, signal });
  if (!response.ok) return getJSON(path, { token, signal }); // throws the API's error
  const text = await response.text();
  return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
}

/** The registered systems and their drawing modules ({name, board}). */
let systemsPromise = null;
export function webSystems() {
  systemsPromise ??= getJSON("/web/systems");
  return systemsPromise;
}
