/**
 * Every business constant of the product (spec §9), named once and used from here.
 * Changing a value here changes it everywhere.
 */
import { SHARED_ROOT_ID as CONTRACT_SHARED_ROOT_ID } from '@signpost/contract';

/** The session token's key in local storage. */
export const TOKEN_STORAGE_KEY = 'my_jwt_key';

/** Languages: English is the default; pt, fr and de carry the same English texts. */
export const DEFAULT_LANGUAGE = 'en';
export const SUPPORTED_LANGUAGES = ['en', 'pt', 'fr', 'de'] as const;

/** Base paths of the APIs. */
export const AUTH_BASE_PATH = '/api/auth';
export const CONSUMER_BASE_PATH = '/api/consumer';
/** The first run: whether setup is needed, and the setup itself. */
export const SETUP_BASE_PATH = '/api/setup';
/** The administration console's calls. */
export const ADMIN_BASE_PATH = '/api/admin';

/** Success statuses. */
export const STATUS_WRITE_OK = 204;
export const STATUS_SESSION_CREATED = 201;
export const STATUS_NOT_MODIFIED = 304;
export const STATUS_UNAUTHORIZED = 401;

/** A press held this long opens an item's context menu. */
export const LONG_PRESS_MS = 400;

/** People list of the add-members panel. */
export const PEERS_PAGE_SIZE = 20;
export const PEERS_SCROLL_THRESHOLD_PX = 50;
export const PEERS_SEARCH_DEBOUNCE_MS = 250;

/**
 * Search autocomplete. Its minimum length (1) is the link search's own rule, shared with the
 * browser extension: MIN_QUERY_LENGTH of @signpost/link-search.
 */
export const AUTOCOMPLETE_DELAY_MS = 300;

/** A space card shows at most this many items before 'Show all'. */
export const SPACE_PANEL_MAX_ITEMS = 12;

/** A collection's icon preview shows at most this many icons. */
export const COLLECTION_PREVIEW_MAX_ICONS = 4;

/**
 * Last-used and recent-search lists: most recent first, no duplicates; the oldest entry is
 * removed when more than RECENT_LIST_TRIM_ABOVE exist, so a list holds at most
 * RECENT_LIST_MAX_ENTRIES.
 */
export const RECENT_LIST_MAX_ENTRIES = 6;
export const RECENT_LIST_TRIM_ABOVE = 5;

/** The add button's loading indicator resets after this long, whatever the result. */
export const ADD_LOADING_RESET_MS = 2000;

/** Overlay and dialog animations. */
export const OVERLAY_ENTER_MS = 120;
export const OVERLAY_EXIT_MS = 100;
export const DIALOG_ANIMATION_MS = 150;
export const DIALOG_ANIMATION_SLOW_MS = 300;

/** Special collection and item ids. */
export const SHARED_ROOT_ID: string = CONTRACT_SHARED_ROOT_ID;
export const ADD_LINK_ID = 'add_link';

/** The address fragment that carries a token: `#session?token=…`. */
export const SESSION_FRAGMENT_MARKER = 'session';
export const SESSION_FRAGMENT_TOKEN_PARAM = 'token';

/** Product name used where the spec writes {brand}, unless configured. */
export const DEFAULT_BRAND = 'Signpost';

/** How many entries of a last-used or recent-search list show before 'Show More'. */
export const RECENT_LIST_COLLAPSED_COUNT = 3;

/** At most this many search results are rendered at once. */
export const SEARCH_MAX_RESULTS = 50;

/** Only these schemes are ever rendered as links. */
export const SAFE_LINK_PROTOCOLS = ['http:', 'https:', 'mailto:'] as const;

/** A single sign-on failure's message longer than this is not shown (a crafted address). */
export const SSO_ERROR_MESSAGE_MAX_LENGTH = 300;

/** Second factor: the authenticator app's code has this many digits. */
export const TOTP_CODE_LENGTH = 6;

/** Choices of an access token's lifetime, in days; absent means it never expires. */
export const ACCESS_TOKEN_EXPIRY_CHOICES_DAYS = [7, 30, 90, 365] as const;

/** A copied-to-clipboard confirmation shows this long. */
export const COPIED_NOTICE_MS = 2000;

/**
 * How often an open portal asks whether its menu changed (an unchanged menu is a 304 without
 * a body). It also notices within this time that its session ended elsewhere — the person
 * was disabled, signed out everywhere, or their password reset — and shows the login screen.
 */
export const MENU_REFRESH_MS = 30_000;

/**
 * How often the portal asks on its own while its live-update stream is open, which tells it
 * of every change (decision 0062): a safety net. With the stream closed it asks every
 * MENU_REFRESH_MS again.
 */
export const MENU_REFRESH_LIVE_MS = 5 * 60_000;

/**
 * After a deletion, the notice with 'Undo' shows this long (decision 0052); a reload within
 * that time brings it back for what is left. The server keeps what was deleted longer
 * (UNDO_WINDOW_SECONDS of the contract), so the button works as long as it shows.
 */
export const UNDO_NOTICE_MS = 10_000;

/** After an undo, the notice says it is done for this long. */
export const UNDO_DONE_NOTICE_MS = 4000;
