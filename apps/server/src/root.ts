// The composition root (decision 0070): the one place that builds every repository and
// service, once, and hands each its collaborators. No service builds another; routes get the
// services they call from app.ts; background work (the job queue, periodic tasks, live
// updates, the rounds on other sites) is declared here by the modules' own factories and
// started and stopped by whoever runs the root: the app (app.ts) or a command (admin.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import type { Mailer } from './jobs/mailer.ts';
import { startPeriodic, type PeriodicTask } from './jobs/periodic.ts';
import { createInstanceRegistry } from './jobs/instances.ts';
import { createJobs } from './jobs/queue.ts';
import { createAccessRepository } from './modules/access/access.repository.ts';
import { createAccessService } from './modules/access/access.service.ts';
import { createAdminAccess } from './modules/access/admin-access.ts';
import { createAccessTokensRepository } from './modules/access-tokens/access-tokens.repository.ts';
import { createAccessTokensService } from './modules/access-tokens/access-tokens.service.ts';
import { auditRetention } from './modules/audit/audit-retention.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createSessionsRepository } from './modules/auth/sessions.repository.ts';
import { createBatchService } from './modules/batch/batch.service.ts';
import { createCollectionsRepository } from './modules/collections/collections.repository.ts';
import { createCollectionsService } from './modules/collections/collections.service.ts';
import { peopleChangesRetention } from './modules/directory/people-changes-retention.ts';
import { createDirectoryRepository } from './modules/directory/directory.repository.ts';
import { createPeopleDirectory } from './modules/directory/directory.service.ts';
import { createDemoIdpRepository } from './modules/demo-idp/demo-idp.repository.ts';
import { createDemoIdpService } from './modules/demo-idp/demo-idp.service.ts';
import { createFavoritesRepository } from './modules/favorites/favorites.repository.ts';
import { createFavoritesService } from './modules/favorites/favorites.service.ts';
import { iconJobs } from './modules/icons/icons.rounds.ts';
import { createIconsRepository } from './modules/icons/icons.repository.ts';
import { checkUploadedIcon, createIconsService } from './modules/icons/icons.service.ts';
import { createInvitationsRepository } from './modules/invitations/invitations.repository.ts';
import { createInvitationsService } from './modules/invitations/invitations.service.ts';
import { linkCheckJobs } from './modules/link-health/link-health.rounds.ts';
import { createLinkHealthRepository } from './modules/link-health/link-health.repository.ts';
import { createLinkHealthService } from './modules/link-health/link-health.service.ts';
import { createLinksRepository } from './modules/links/links.repository.ts';
import { createLinksService } from './modules/links/links.service.ts';
import { LiveHub } from './modules/live/live.hub.ts';
import { createListener } from './modules/live/live.listener.ts';
import { createLiveRepository } from './modules/live/live.repository.ts';
import { createMenuRepository } from './modules/menu/menu.repository.ts';
import { createMenuService } from './modules/menu/menu.service.ts';
import { localAddressWarnings } from './lib/public-address.ts';
import { createOrganizationRepository } from './modules/organization/organization.repository.ts';
import { createOrganizationService } from './modules/organization/organization.service.ts';
import { createPeersRepository } from './modules/peers/peers.repository.ts';
import { createPeersService } from './modules/peers/peers.service.ts';
import { createPeopleImportRepository } from './modules/people/people-import.repository.ts';
import { createPeopleImportService } from './modules/people/people-import.service.ts';
import { createPeopleRepository } from './modules/people/people.repository.ts';
import { createPeopleRules } from './modules/people/people.rules.ts';
import { createScimRepository } from './modules/scim/scim.repository.ts';
import { createScimService } from './modules/scim/scim.service.ts';
import { createSsoGroupsRepository } from './modules/sso-groups/sso-groups.repository.ts';
import { createSsoGroupsService } from './modules/sso-groups/sso-groups.service.ts';
import { createPeopleService, INVITATION_MAIL } from './modules/people/people.service.ts';
import { createSecondFactorRepository } from './modules/second-factor/second-factor.repository.ts';
import { createSecondFactorService } from './modules/second-factor/second-factor.service.ts';
import { createCommandLineRepository } from './modules/setup/command-line.repository.ts';
import { createCommandLineService } from './modules/setup/command-line.service.ts';
import { createSetupRepository } from './modules/setup/setup.repository.ts';
import { createSetupService } from './modules/setup/setup.service.ts';
import { createSharesRepository } from './modules/shares/shares.repository.ts';
import { createBookmarksRepository } from './modules/bookmarks/bookmarks.repository.ts';
import { createBookmarksService } from './modules/bookmarks/bookmarks.service.ts';
import { createSharesService } from './modules/shares/shares.service.ts';
import { createSsoRepository } from './modules/sso/sso.repository.ts';
import { createSsoService } from './modules/sso/sso.service.ts';
import { createSuggestionsRepository } from './modules/suggestions/suggestions.repository.ts';
import { createSuggestionsService } from './modules/suggestions/suggestions.service.ts';
import { createTeamsRepository } from './modules/teams/teams.repository.ts';
import { createTeamsService } from './modules/teams/teams.service.ts';
import { createThrottleRepository } from './modules/throttle/throttle.repository.ts';
import { createThrottleService } from './modules/throttle/throttle.service.ts';
import { undoRetention } from './modules/undo/undo-retention.ts';
import { createUndoRepository } from './modules/undo/undo.repository.ts';
import { createUndoService } from './modules/undo/undo.service.ts';
import { createFetcher, SIGNPOST_VERSION } from './outbound/fetcher.ts';
import type { Fetcher } from './outbound/types.ts';

export interface RootOptions {
  config: Config;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Replaces the SMTP mailer (tests of failures). */
  mailer?: Mailer;
  /** Replaces the guarded fetcher of icons and link checks (tests: one for local servers). */
  fetcher?: Fetcher;
  /** Repositories to use instead of the real ones (tests: recording or fake ones). */
  repositories?: Repositories;
  /**
   * Run this process's periodic work — retention, and the rounds on other sites where
   * OUTBOUND_REQUESTS allows — once started (the server does; tests only when they ask).
   */
  periodicJobs?: boolean;
}

/** Every repository, built once; each method takes the executor it runs on. */
export function createRepositories(config: Config) {
  return {
    access: createAccessRepository(),
    accessTokens: createAccessTokensRepository(),
    audit: createAuditRepository(),
    bookmarks: createBookmarksRepository(),
    collections: createCollectionsRepository(),
    commandLine: createCommandLineRepository(),
    demoIdp: createDemoIdpRepository(),
    directory: createDirectoryRepository(),
    favorites: createFavoritesRepository(),
    icons: createIconsRepository(),
    invitations: createInvitationsRepository(),
    linkHealth: createLinkHealthRepository(),
    links: createLinksRepository(),
    live: createLiveRepository(config.sessionIdleMinutes),
    menu: createMenuRepository(),
    organization: createOrganizationRepository(),
    peers: createPeersRepository(),
    people: createPeopleRepository(),
    peopleImport: createPeopleImportRepository(),
    scim: createScimRepository(),
    ssoGroups: createSsoGroupsRepository(),
    secondFactor: createSecondFactorRepository(),
    sessions: createSessionsRepository(),
    setup: createSetupRepository(),
    shares: createSharesRepository(),
    sso: createSsoRepository(),
    suggestions: createSuggestionsRepository(),
    teams: createTeamsRepository(),
    throttle: createThrottleRepository(),
    undo: createUndoRepository(),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;

/**
 * Builds the server's services on a database, without HTTP: the app registers its routes
 * with them, the command line and the tests call them directly. Nothing here touches the
 * database or starts a timer; `start` and `stop` do.
 */
export function composeServer({
  config,
  database,
  log,
  mailer,
  fetcher: givenFetcher,
  periodicJobs = false,
  repositories = createRepositories(config),
}: RootOptions) {
  const { db } = database;
  const r = repositories;

  // This process among the instances on the database (decision 0082).
  const instances = createInstanceRegistry({ db, log });
  const jobs = createJobs({ config, database, log, instances, ...(mailer ? { mailer } : {}) });

  // The rules every other module asks.
  const access = createAccessService({ access: r.access });
  const adminAccess = createAdminAccess({ access: r.access });
  const audit = createAuditService({ db, audit: r.audit, adminAccess });
  const throttle = createThrottleService({ db, throttle: r.throttle });
  const undo = createUndoService({ db, undo: r.undo, access, audit });

  // Signing in and accounts.
  const accessTokens = createAccessTokensService({ db, accessTokens: r.accessTokens, audit });
  const secondFactor = createSecondFactorService({
    db,
    config,
    secondFactor: r.secondFactor,
    throttle,
    audit,
  });
  const auth = createAuthService({
    db,
    config,
    sessions: r.sessions,
    accessTokens,
    throttle,
    secondFactor,
    audit,
  });
  const peopleRules = createPeopleRules({ people: r.people, audit });
  // Teams and roles from a sign-in's groups (decision 0084).
  const ssoGroups = createSsoGroupsService({
    db,
    // Read at each request: the sso service below holds them (the demo provider joins late).
    providers: () => sso.listProviders(),
    log,
    ssoGroups: r.ssoGroups,
    rules: peopleRules,
    audit,
    adminAccess,
    organizationOf: (organization) => r.sso.findOrganization(db, organization),
  });
  const sso = createSsoService({
    db,
    config,
    log,
    ssoGroups,
    sso: r.sso,
    auth,
    secondFactor,
    throttle,
    audit,
  });
  const invitations = createInvitationsService({
    db,
    config,
    invitations: r.invitations,
    throttle,
    audit,
    auth,
  });
  const setup = createSetupService({ db, config, setup: r.setup, throttle, audit, auth });
  const demoIdp = createDemoIdpService({ db, demoIdp: r.demoIdp });

  // The organization's people and teams.
  // One people directory (decision 0072): the console's list and the peer search share it.
  const peopleDirectory = createPeopleDirectory({ db, directory: r.directory });
  const teams = createTeamsService({ db, teams: r.teams, adminAccess, audit });
  // What became of each invitation's mail, as the queue's worker finds it (decision 0079).
  jobs.onMailOutcome(INVITATION_MAIL, (id, outcome) => invitations.mailOutcome(id, outcome));
  const people = createPeopleService({
    db,
    config,
    people: r.people,
    rules: peopleRules,
    adminAccess,
    audit,
    invitations,
    jobs,
    directory: peopleDirectory,
    teams,
  });
  // People from a CSV file (decision 0085).
  const peopleImport = createPeopleImportService({
    db,
    config,
    peopleImport: r.peopleImport,
    people: r.people,
    adminAccess,
    invitations,
    jobs,
  });
  // The organization's identity system provisions people and teams (decision 0084).
  const scim = createScimService({
    db,
    scim: r.scim,
    rules: peopleRules,
    audit,
    adminAccess,
  });
  const commandLine = createCommandLineService({
    db,
    config,
    commandLine: r.commandLine,
    setup,
    peopleRules,
    audit,
  });
  const organization = createOrganizationService({
    db,
    organization: r.organization,
    adminAccess,
    audit,
    ssoProviders: config.oidcProviders,
    publicAddressWarning:
      localAddressWarnings({
        publicUrl: config.publicUrl,
        mailFrom: config.mail?.from ?? null,
      }).join(' ') || null,
  });
  const suggestions = createSuggestionsService({
    db,
    suggestions: r.suggestions,
    adminAccess,
    audit,
  });

  // The portal's content.
  const icons = createIconsService({
    db,
    icons: r.icons,
    access,
    audit,
    jobs,
    log,
    checkUpload: checkUploadedIcon,
  });
  const links = createLinksService({ db, links: r.links, access, audit, undo, icons });
  const collections = createCollectionsService({
    db,
    collections: r.collections,
    access,
    audit,
    undo,
  });
  const favorites = createFavoritesService({ db, favorites: r.favorites, access, undo });
  const batch = createBatchService({ db, links, collections, favorites, undo });
  const shares = createSharesService({ db, shares: r.shares, access, audit, undo });
  const bookmarks = createBookmarksService({
    db,
    bookmarks: r.bookmarks,
    access,
    audit,
    undo,
    icons,
  });
  const menu = createMenuService({
    db,
    menu: r.menu,
    cacheBytes: config.menuCacheMb * 1024 * 1024,
  });
  const peers = createPeersService({ db, peers: r.peers, directory: peopleDirectory });
  const linkHealth = createLinkHealthService({
    db,
    linkHealth: r.linkHealth,
    adminAccess,
    audit,
  });

  // Live updates of the menu (decision 0062): this instance's hub, fed by the database.
  const live = new LiveHub({ db, live: r.live }, config.live, log, undefined, instances);
  const listener = createListener(
    database,
    { notification: (payload) => live.handle(payload), resync: () => live.resync() },
    log,
  );

  // Work on the sites links point to (decisions 0067–0069), where OUTBOUND_REQUESTS allows:
  // one guarded fetcher, and rounds that stop taking links as the server starts closing.
  const outbound = new AbortController();
  const fetcher =
    periodicJobs && config.outbound.enabled
      ? (givenFetcher ?? createFetcher({ version: SIGNPOST_VERSION, publicUrl: config.publicUrl }))
      : null;
  if (fetcher) {
    for (const job of [
      ...iconJobs({
        config,
        icons: r.icons,
        db,
        fetcher,
        log,
        stopping: outbound.signal,
        instanceId: instances.id,
      }),
      ...linkCheckJobs({
        config,
        checks: r.linkHealth,
        db,
        fetcher,
        log,
        stopping: outbound.signal,
        instanceId: instances.id,
      }),
    ]) {
      jobs.define(job);
    }
  }

  const periodic: PeriodicTask[] = [
    auditRetention(audit),
    peopleChangesRetention(peopleDirectory),
    undoRetention(undo),
    {
      name: 'mail acceptance purge',
      everyMs: 60 * 60_000,
      async run(log) {
        const deleted = await jobs.forgetOldAcceptances();
        if (deleted > 0)
          log.info({ deleted }, "old records of the mail server's acceptance deleted");
      },
    },
  ];
  let running: ReturnType<typeof startPeriodic> | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  const services = {
    access,
    accessTokens,
    adminAccess,
    audit,
    auth,
    batch,
    bookmarks,
    collections,
    commandLine,
    demoIdp,
    favorites,
    icons,
    invitations,
    jobs,
    linkHealth,
    links,
    live,
    menu,
    organization,
    peers,
    people,
    peopleImport,
    scim,
    ssoGroups,
    secondFactor,
    setup,
    shares,
    sso,
    suggestions,
    teams,
    throttle,
    undo,
  };

  return {
    services,
    repositories,

    /**
     * Starts the background work: the job queue (mail, and the rounds), live updates, and
     * with `periodicJobs` this process's periodic tasks.
     */
    async start(): Promise<void> {
      await instances.start();
      await jobs.start();
      live.start();
      await listener.start();
      // Directories in memory of organizations no one has asked about for a while are dropped.
      sweeper ??= setInterval(() => peopleDirectory.sweep(), 60_000).unref();
      if (periodicJobs) running ??= startPeriodic(periodic, log);
    },

    /** Before connections drain: open streams end, and rounds stop taking links. */
    beforeClose(): void {
      live.close();
      outbound.abort();
    },

    /** Stops what runs, waiting for work in progress; the database is closed by its owner. */
    async stop(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      peopleDirectory.clear();
      await running?.stop();
      running = null;
      await jobs.stop();
      await listener.stop();
      await instances.stop();
      await fetcher?.close();
    },
  };
}

export type Root = ReturnType<typeof composeServer>;
export type Services = Root['services'];
