// The sign-in token of a page's address (#token=…, as `snapmap serve --demo` prints it). takeToken() reads it and
// at once takes it out of the address (history.replaceState), keeping the address's other parameters, so no
// bookmark, shared link or later script finds it there; the page keeps it in memory only and sends it only in
// the Authorization header of the server's own /v1/me/ requests.
export function takeToken() {
  const parameters = new URLSearchParams(location.hash.slice(1));
  const token = parameters.get("token");
  parameters.delete("token");
  const rest = parameters.toString();
  history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  return { token, parameters };
}
