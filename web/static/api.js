// The server's API: JSON in, JSON out; a fault's message is thrown as an Error.

/** POSTs `body` (an object as JSON, or a string as text) to `path`; returns the JSON answer. */
export async function post(path, body) {
  const text = typeof body === "string";
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": text ? "text/plain; charset=utf-8" : "application/json" },
    body: text ? body : JSON.stringify(body ?? {}),
  });
  return answer(response);
}

/** GETs `path`; returns the JSON answer (or the text, if `asText`). */
export async function get(path, asText = false) {
  const response = await fetch(path);
  if (asText && response.ok) return response.text();
  return answer(response);
}

async function answer(response) {
  let data;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data.error ?? `the server answered ${response.status}`);
  return data;
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
