// A real OpenID Connect provider (npm's oidc-provider) for the single sign-on tests.
//   node provider.mjs <port, 0 for any> <redirect URI>[,<redirect URI>...]
// Prints "issuer <url>" once it listens. One client: mentorpay / test-secret.
// The sign-in page takes a user name: "ann" signs in as ann@agency.test in group "staff";
// "ann:finance,admins" in those groups. Names starting with "unverified-" have an unverified
// e-mail, "noemail-" none; for "wrongaud-" and "expired-" the ID token is signed by this
// provider's own key with another audience or an expiry in the past, so that only the
// relying party's verification can refuse them.
import http from 'node:http';
import Provider from 'oidc-provider';
import { generateKeyPair, exportJWK, importJWK, SignJWT, decodeJwt } from 'jose';

// The tests read the first line only and may close the pipe: later writes must not kill us.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const [port = '0', redirects = 'http://127.0.0.1/callback'] = process.argv.slice(2);

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
const signingKey = await importJWK(jwk, 'RS256');

function account(id) {
  const [name, groupList] = id.split(':');
  const groups = groupList ? groupList.split(',').filter(Boolean) : ['staff'];
  const claims = { sub: id, given_name: name, family_name: 'Tester', groups };
  if (!name.startsWith('noemail-')) {
    claims.email = `${name}@agency.test`;
    claims.email_verified = !name.startsWith('unverified-');
  }
  return claims;
}

const server = http.createServer();
server.listen(Number(port), '127.0.0.1', async () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const provider = new Provider(issuer, {
    clients: [{
      client_id: 'mentorpay',
      client_secret: 'test-secret',
      redirect_uris: redirects.split(','),
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    }],
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
      groups: ['groups'],
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (ctx, id) => ({ accountId: id, claims: async () => account(id) }),
    // No consent screen: the grant of every scope asked for exists once signed in.
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile groups');
      await grant.save();
      return grant;
    },
  });

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || !ctx.body?.id_token) return;
    const claims = decodeJwt(ctx.body.id_token);
    const name = String(claims.sub).split(':')[0];
    if (!name.startsWith('wrongaud-') && !name.startsWith('expired-')) return;
    if (name.startsWith('wrongaud-')) claims.aud = 'another-application';
    if (name.startsWith('expired-')) {
      claims.iat -= 7200;
      claims.exp = claims.iat + 600;
    }
    ctx.body.id_token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: jwk.kid })
      .sign(signingKey);
  });

  const page = (uid) => `<!doctype html><html lang="en"><head><title>Agency sign-in</title></head>
<body><main><h1>Agency sign-in</h1>
<form method="post" action="/interaction/${uid}/login">
<label for="login">User name</label> <input id="login" name="login" autocomplete="username" required>
<button type="submit">Continue</button></form></main></body></html>`;

  const callback = provider.callback();
  server.on('request', async (req, res) => {
    const match = req.url.match(/^\/interaction\/([\w-]+)(\/login)?$/);
    if (!match) return callback(req, res);
    try {
      if (req.method === 'GET') {
        const details = await provider.interactionDetails(req, res);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(page(details.uid));
      }
      let body = '';
      for await (const chunk of req) body += chunk;
      const login = new URLSearchParams(body).get('login')?.trim();
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  console.log(`issuer ${issuer}`);
});
