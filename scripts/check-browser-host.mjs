// Checks that a browser host answers as a browser would use it: the page at the printed address, the
// launch token (from the address's fragment, never a query string) traded once for the session
// cookie, and a bridge call answered with that cookie. Prints one line; exits 0 when all three hold.
//
//   node scripts/check-browser-host.mjs 'http://127.0.0.1:PORT/#token=…'
const launch = new URL(process.argv[2] ?? '');
const token = /(?:^#|&)token=([\w-]+)/.exec(launch.hash)?.[1];
const origin = launch.origin;

function fail(message) {
  console.log(`browser host: ${message}`);
  process.exit(1);
}

if (!token) fail('the printed address has no #token= fragment');
if (launch.search.includes('token')) fail('the printed address carries the token in its query string');

const page = await fetch(`${origin}/`);
const html = await page.text();
if (page.status !== 200 || !html.includes('<div id="root"'))
  fail(`GET / answered ${page.status}, not the app page`);

const session = await fetch(`${origin}/session`, { method: 'POST', headers: { 'X-Portolan-Token': token } });
const setCookie = session.headers.get('set-cookie') ?? '';
if (session.status !== 204 || !/;\s*HttpOnly/i.test(setCookie) || !/;\s*SameSite=Strict/i.test(setCookie))
  fail(`the token exchange answered ${session.status} with "${setCookie.replace(/=[^;]*/, '=…')}"`);
const cookie = setCookie.split(';')[0];

const info = await fetch(`${origin}/rpc/app.info`, { method: 'POST', headers: { Cookie: cookie } });
const body = await info.json().catch(() => null);
if (info.status !== 200 || body?.ok !== true)
  fail(`app.info answered ${info.status}: ${JSON.stringify(body)}`);

const again = await fetch(`${origin}/session`, { method: 'POST', headers: { 'X-Portolan-Token': token } });
if (again.status !== 401) fail(`the spent token was accepted again (${again.status})`);

console.log(`browser host: app page, session cookie and bridge ok (version ${body.value.version})`);
