// The demo provider's own pages: plain HTML and CSS, no script, so that the strict
// Content-Security-Policy of every response applies to them unchanged.

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f1f5f9; color: #0f172a; margin: 0; }
  main { max-width: 22rem; margin: 4rem auto; background: #fff; padding: 2rem;
         border-radius: .75rem; box-shadow: 0 1px 3px rgba(15, 23, 42, .15); }
  h1 { font-size: 1.25rem; margin: 0 0 .25rem; }
  p { color: #475569; font-size: .9rem; }
  label { display: block; font-size: .85rem; margin: 1rem 0 .25rem; }
  input { width: 100%; box-sizing: border-box; padding: .5rem; font-size: 1rem;
          border: 1px solid #cbd5e1; border-radius: .375rem; }
  button { margin-top: 1.25rem; width: 100%; padding: .6rem; font-size: 1rem; border: 0;
           border-radius: .375rem; background: #2563eb; color: #fff; cursor: pointer; }
  button.secondary { background: #e2e8f0; color: #0f172a; margin-top: .5rem; }
  .error { color: #b91c1c; background: #fef2f2; padding: .5rem; border-radius: .375rem; }
  .badge { display: inline-block; font-size: .75rem; background: #fef3c7; color: #92400e;
           padding: .1rem .5rem; border-radius: 1rem; }`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

export function loginPage(uid: string, options: { email?: string; error?: string } = {}) {
  const action = `/demo-idp/interaction/${encodeURIComponent(uid)}`;
  return page(
    'Northwind SSO (demo)',
    `<span class="badge">Demo identity provider</span>
<h1>Sign in to Northwind</h1>
<p>Any Northwind demo person, for example <strong>demo@example.com</strong>, with the password
<strong>signpost-demo</strong>. A new hire, <strong>newhire1@example.com</strong> to
<strong>newhire10@example.com</strong> (same password), is not in Signpost yet: their first
sign-in creates them.</p>
${options.error ? `<p class="error" role="alert">${escape(options.error)}</p>` : ''}
<form method="post" action="${action}/login">
  <label for="email">E-mail</label>
  <input id="email" name="email" type="email" autocomplete="username" required
         value="${escape(options.email ?? 'demo@example.com')}">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="${action}/abort">
  <button type="submit" class="secondary">Cancel</button>
</form>`,
  );
}

/** The provider's sign-out question; `form` is the provider's own hidden form. */
export function logoutPage(form: string) {
  return page(
    'Sign out of Northwind SSO',
    `<span class="badge">Demo identity provider</span>
<h1>Sign out of Northwind SSO too?</h1>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button>
<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>`,
  );
}

export function messagePage(title: string, text: string) {
  return page(
    title,
    `<span class="badge">Demo identity provider</span>
<h1>${escape(title)}</h1><p>${escape(text)}</p><p><a href="/">Back to Signpost</a></p>`,
  );
}
