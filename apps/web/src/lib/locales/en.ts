/**
 * The English texts. Spec texts are used exactly; pt, fr and de register these same texts
 * until translations exist.
 */
export const en = {
  brand: {
    tagline: 'All the links of your organization, in one place.',
  },
  login: {
    title: 'Sign in',
    email: 'E-mail',
    password: 'Password',
    submit: 'Log in',
    orSignInWith: 'Or Sign in with',
    accessYour: 'Access your {{brand}}',
    tokenLabel: 'Access token',
    tokenHint: 'Paste the access token you were given.',
    tokenSubmit: 'Continue',
    methodsFailed: 'The sign-in methods could not be loaded. Reload the page to try again.',
  },
  portal: {
    loading: 'loading',
    search: 'Search',
    feedback: 'Feedback',
    feedbackTitle: 'Feedback',
    feedbackText: 'Tell us what works and what does not. The form opens in a new tab.',
    feedbackLink: 'Open the feedback form',
    feedbackUnavailable: 'No feedback form is configured for this portal.',
    close: 'Close',
    logout: 'Logout',
    consentPreferences: 'Consent preferences',
    consentTitle: 'Consent preferences',
    consentText:
      'With your consent, we record anonymous events such as sign-in errors to improve the portal. No links, searches or tokens are recorded.',
    consentAllow: 'Allow anonymous usage events',
    consentSave: 'Save',
    loadFailed: 'The portal could not be loaded.',
    retry: 'Try again',
    mainNavigation: 'Spaces',
  },
  space: {
    showAll: 'Show all',
    empty: 'Nothing here yet.',
    add: 'Add',
    intro: {
      personal: 'Hello {{name}}, these are your own links and collections.',
      team: 'Links your team shares.',
      organization: 'Links for everyone in the organization.',
    },
    info: {
      personal:
        '{{name}} is yours alone: keep links and collections here, mark links as favorites and share collections with colleagues.',
      team: 'This space holds the links of your team. You can add them to My Space or suggest new ones.',
      organization:
        'This space holds the links of the whole organization. You can add them to My Space or suggest new ones.',
    },
    typeIcon: {
      personal: 'Personal space',
      team: 'Team space',
      organization: 'Organization space',
    },
    back: 'Back',
    itemCount_one: '{{count}} item',
    itemCount_other: '{{count}} items',
  },
  search: {
    title: 'Search',
    placeholder: 'Search links',
    label: 'Search links',
    lastUsed: 'Last used',
    recentSearches: 'Recent searches',
    showMore: 'Show More',
    showLess: 'Show less',
    noResults: 'No links match "{{query}}".',
    results: 'Results',
    resultCount_one: '{{count}} link found',
    resultCount_other: '{{count}} links found',
  },
  item: {
    openInNewTab: '{{name}} (opens in a new tab)',
    unsafeUrl: 'This address cannot be opened.',
  },
};

export type Texts = typeof en;
