/**
 * What the popup says. Where the portal says the same thing, the text is the portal's own
 * (apps/web/src/lib/locales: the key is named beside it), so a person meets one wording.
 */
export const BRAND = 'Signpost';

export const texts = {
  // Signing in
  signInTitle: `Access your ${BRAND}`, // login.accessYour
  portalAddress: 'Portal address',
  portalAddressHint: `The address you open ${BRAND} at, such as https://links.example.com`,
  token: 'Access token', // login.tokenLabel
  tokenHint:
    'Make one in the portal: Settings, then Access tokens. A token for this browser alone is best: you can revoke it there at any time.',
  openPortalForToken: 'Open the portal',
  signIn: 'Continue', // login.tokenSubmit
  signingIn: 'Checking…',
  signOut: 'Sign out',
  signedOut:
    'Signed out: this browser forgot the token. It works elsewhere until you revoke it in the portal’s settings.',
  signedInAs: (name: string, organization: string) => `${name}, ${organization}`,

  // The address and the token, before anything is sent
  addressMissing: 'Enter the address of your portal first.',
  addressInvalid:
    'This is not a web address. Enter it as you open the portal, such as https://links.example.com',
  addressNotHttps: 'Use the portal’s https address: the token must not travel unencrypted.',
  tokenMissing: 'Paste your access token first.', // login.tokenMissing
  permissionRefused: (origin: string) =>
    `The extension may only talk to ${origin} once you allow it. Continue again, and allow it when the browser asks.`,

  // Answers of the portal
  tokenInvalid:
    'This access token is not valid. Check that you pasted all of it, or ask for a new one.', // login.tokenInvalid
  tokenExpired:
    'This access token has expired. Make a new one in your settings, or ask for a new one.', // login.tokenExpired
  tokenRevoked:
    'This access token no longer works: it was revoked, or it expired. Make a new one in the portal’s settings and paste it here.',
  notAPortal: (origin: string) => `No ${BRAND} portal answered at ${origin}. Check the address.`,
  unreachable: (origin: string) =>
    `${origin} could not be reached. Check the address and your connection, then try again.`,
  failed: 'Sorry, that did not work. Please try again.', // write.failed
  collectionGone: 'This collection is not there any more. Choose another one.',
  loadFailed: 'Your collections could not be loaded.',
  retry: 'Try again', // portal.retry
  loading: 'loading', // portal.loading

  // Adding the page
  addTitle: 'Add this page',
  linkName: 'Link name', // add.linkName
  linkAddress: 'Link address', // add.linkAddress
  linkDescription: 'Link description', // add.linkDescription
  collection: 'Collection',
  mySpace: 'My Space',
  suggestTo: (space: string, path: string) => `Suggest to ${space}: ${path}`,
  noPage: 'This page’s address cannot be read here: type or paste the address to add.',
  alreadyIn: (places: string) => `Already in ${places}.`,
  add: 'Add', // add.submit
  adding: 'Adding…', // add.adding
  suggest: 'Send suggestion', // details.suggestSubmit
  suggesting: 'Sending…',
  added: (where: string) => `Added to ${where}.`,
  suggested: 'Thank you, your suggestion was sent.', // details.suggestSent
  noCollections: 'You have no collection to add to.',

  // Searching
  search: 'Search links', // search.label
  noResults: (query: string) => `No links match "${query}".`, // search.noResults
  resultCount: (count: number) => (count === 1 ? '1 link found' : `${count} links found`), // search.resultCount
  opensInNewTab: '(opens in a new tab)', // item.opensInNewTab

  openPortal: `Open ${BRAND}`,
} as const;
