// The content of the demo organization: real tools at their public addresses, and a
// deterministic list of colleagues. demo.ts seeds it; the demo identity provider finds the
// demo organization by its name (modules/demo-idp). The end-to-end journeys cast colleagues
// by the e-mails `colleagues()` gives (apps/web/e2e/people-fixtures.ts): renaming people
// here means recasting them there.

export interface DemoLink {
  name: string;
  url: string;
  appName: string | null;
  description: string;
}

export interface DemoCollection {
  name: string;
  description: string;
  color: string | null;
  links: DemoLink[];
  children?: DemoCollection[];
}

const link = (
  name: string,
  url: string,
  appName: string | null,
  description: string,
): DemoLink => ({ name, url, appName, description });

export const ORGANIZATION_NAME = 'Northwind Labs';

export const ORGANIZATION_COLLECTIONS: DemoCollection[] = [
  {
    name: 'Company essentials',
    description: 'The tools everyone at Northwind uses every week',
    color: '#2563eb',
    links: [
      link(
        'HR portal',
        'https://www.workday.com',
        'Workday',
        'Time off, personal details, org chart',
      ),
      link('Payroll', 'https://www.adp.com', 'ADP', 'Payslips, tax forms and bank details'),
      link('Benefits', 'https://gusto.com', 'Gusto', 'Health insurance, pension and perks'),
      link('Expenses', 'https://www.expensify.com', 'Expensify', 'Submit receipts within 30 days'),
      link(
        'IT helpdesk',
        'https://www.zendesk.com',
        'Zendesk',
        'Laptop, access and account problems',
      ),
    ],
    children: [
      {
        name: 'Travel',
        description: 'Booking and policies for business trips',
        color: null,
        links: [
          link(
            'Book a trip',
            'https://navan.com',
            'Navan',
            'Flights, hotels and trains in one place',
          ),
          link(
            'Travel expenses',
            'https://www.concur.com',
            'SAP Concur',
            'Per diems and mileage claims',
          ),
        ],
      },
    ],
  },
  {
    name: 'Communication',
    description: 'Chat, mail, meetings and calendars',
    color: '#16a34a',
    links: [
      link('Slack', 'https://slack.com', 'Slack', 'Company chat; #general for announcements'),
      link('Mail', 'https://mail.google.com', 'Gmail', 'Your Northwind mailbox'),
      link(
        'Calendar',
        'https://calendar.google.com',
        'Google Calendar',
        'Meetings and room booking',
      ),
      link('Zoom', 'https://zoom.us', 'Zoom', 'Video calls with customers and partners'),
      link('Drive', 'https://drive.google.com', 'Google Drive', 'Shared drives of every team'),
    ],
  },
  {
    name: 'Knowledge',
    description: 'Where our documentation lives',
    color: '#9333ea',
    links: [
      link(
        'Company wiki',
        'https://www.atlassian.com/software/confluence',
        'Confluence',
        'Handbook, policies and team pages',
      ),
      link('Notion', 'https://www.notion.so', 'Notion', 'Meeting notes and project briefs'),
      link(
        'Learning',
        'https://www.coursera.org',
        'Coursera',
        'Courses paid by the learning budget',
      ),
    ],
  },
];

export interface DemoTeam {
  name: string;
  collections: DemoCollection[];
}

export const TEAMS: DemoTeam[] = [
  {
    name: 'Engineering',
    collections: [
      {
        name: 'Code & delivery',
        description: 'Repositories, tickets and pipelines',
        color: '#0f172a',
        links: [
          link('GitHub', 'https://github.com', 'GitHub', 'All Northwind repositories'),
          link(
            'Jira',
            'https://www.atlassian.com/software/jira',
            'Jira',
            'Sprint boards and the backlog',
          ),
          link('CircleCI', 'https://circleci.com', 'CircleCI', 'Builds and deployments'),
          link('Sentry', 'https://sentry.io', 'Sentry', 'Errors from production'),
        ],
      },
      {
        name: 'On-call & monitoring',
        description: 'Everything you need when the pager goes off',
        color: '#dc2626',
        links: [
          link('PagerDuty', 'https://www.pagerduty.com', 'PagerDuty', 'Rotations and escalations'),
          link('Grafana', 'https://grafana.com', 'Grafana', 'Service dashboards and alerts'),
          link('Datadog', 'https://www.datadoghq.com', 'Datadog', 'Logs, traces and APM'),
        ],
        children: [
          {
            name: 'Runbooks',
            description: 'Step-by-step guides for incidents',
            color: null,
            links: [
              link(
                'Status page',
                'https://www.atlassian.com/software/statuspage',
                'Statuspage',
                'Tell customers what is going on',
              ),
              link(
                'Incident handbook',
                'https://response.pagerduty.com',
                'PagerDuty',
                'How we run an incident, roles included',
              ),
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'Design',
    collections: [
      {
        name: 'Design tools',
        description: 'Files, whiteboards and assets',
        color: '#db2777',
        links: [
          link('Figma', 'https://www.figma.com', 'Figma', 'Product design files and prototypes'),
          link('Miro', 'https://miro.com', 'Miro', 'Workshops and whiteboards'),
          link(
            'Creative Cloud',
            'https://www.adobe.com/creativecloud.html',
            'Adobe Creative Cloud',
            'Photoshop, Illustrator and fonts',
          ),
        ],
      },
      {
        name: 'Research',
        description: 'User research and testing',
        color: '#ea580c',
        links: [
          link('Dovetail', 'https://dovetail.com', 'Dovetail', 'Interview notes and insights'),
          link('Maze', 'https://maze.co', 'Maze', 'Unmoderated usability tests'),
        ],
      },
    ],
  },
  {
    name: 'Sales',
    collections: [
      {
        name: 'Sales stack',
        description: 'Pipeline, calls and contracts',
        color: '#0891b2',
        links: [
          link('Salesforce', 'https://www.salesforce.com', 'Salesforce', 'Accounts and pipeline'),
          link('HubSpot', 'https://www.hubspot.com', 'HubSpot', 'Campaigns and inbound leads'),
          link('Gong', 'https://www.gong.io', 'Gong', 'Call recordings and deal insights'),
          link('DocuSign', 'https://www.docusign.com', 'DocuSign', 'Send contracts for signature'),
          // Broken in the demo (DEMO_LINK_HEALTH), like the two of People tools.
          link('Price list', 'https://prices.northwind.example/current', null, 'List prices'),
          link(
            'Partner portal',
            'https://partners.northwind.example/',
            null,
            'Deal registration for resellers',
          ),
        ],
      },
    ],
  },
  {
    name: 'People & Culture',
    collections: [
      {
        name: 'People tools',
        description: 'Hiring, reviews and engagement',
        color: '#65a30d',
        links: [
          link(
            'Greenhouse',
            'https://www.greenhouse.com',
            'Greenhouse',
            'Open roles and candidates',
          ),
          link('Lattice', 'https://lattice.com', 'Lattice', 'Goals, 1:1s and reviews'),
          link(
            'Culture Amp',
            'https://www.cultureamp.com',
            'Culture Amp',
            'Engagement surveys and results',
          ),
          link(
            'Onboarding checklist',
            'https://onboarding.northwind.example/checklist',
            null,
            'The first week of a new colleague',
          ),
          link(
            'Holiday calendar',
            'https://holidays.northwind.example/',
            null,
            'Public holidays by office',
          ),
        ],
      },
    ],
  },
  {
    name: 'IT',
    collections: [
      {
        name: 'IT services',
        description: 'Accounts, devices and passwords',
        color: '#475569',
        links: [
          link('Okta', 'https://www.okta.com', 'Okta', 'Single sign-on and app access'),
          link('1Password', 'https://1password.com', '1Password', 'Team vaults and shared secrets'),
          link('Jamf', 'https://www.jamf.com', 'Jamf', 'Laptop management'),
          link('Google Admin', 'https://admin.google.com', 'Google Workspace', 'Users and groups'),
          // Broken in the demo (DEMO_LINK_HEALTH): its team's editors and administrators see it.
          link(
            'VPN setup guide',
            'https://vpn.northwind.example/setup',
            null,
            'Connecting from home',
          ),
        ],
      },
    ],
  },
];

/** Dana's teams, by name. */
export const DEMO_TEAMS = ['Engineering', 'Design', 'IT'];

/** Dana's own links and collections in My Space. */
export const PERSONAL_LINKS: DemoLink[] = [
  link('My pull requests', 'https://github.com/pulls', 'GitHub', 'Reviews waiting for me'),
  link('Standup notes', 'https://docs.google.com', 'Google Docs', 'Daily notes, newest first'),
];

export const PERSONAL_COLLECTIONS: DemoCollection[] = [
  {
    name: 'Reading list',
    description: 'Articles and references to come back to',
    color: '#ca8a04',
    links: [
      link('MDN Web Docs', 'https://developer.mozilla.org', null, 'The web platform reference'),
      link('web.dev', 'https://web.dev', null, 'Performance and accessibility guides'),
      link('Martin Fowler', 'https://martinfowler.com', null, 'Architecture and refactoring'),
    ],
    children: [
      {
        name: 'Conference talks',
        description: 'Recordings to watch',
        color: null,
        links: [link('Strange Loop', 'https://www.youtube.com/@StrangeLoopConf', 'YouTube', '')],
      },
    ],
  },
  {
    name: 'Projects',
    description: 'What I am working on',
    color: '#0d9488',
    links: [],
    children: [
      {
        name: 'Checkout redesign',
        description: 'Q3 project with Design',
        color: null,
        links: [
          link('Project board', 'https://trello.com', 'Trello', 'Tasks and owners'),
          link('Prototype', 'https://www.figma.com', 'Figma', 'Latest flows'),
        ],
      },
    ],
  },
];

/** The favorites Dana keeps, by link name (team and organization links). */
export const DEMO_FAVORITES = ['Slack', 'GitHub', 'Figma', 'HR portal'];

/** The collection Dana shares with two colleagues. */
export const DANA_SHARE: DemoCollection = {
  name: 'Launch checklist',
  description: 'Shared with the launch crew',
  color: '#7c3aed',
  links: [
    link('Release notes draft', 'https://docs.google.com', 'Google Docs', 'For the blog post'),
    link('Launch dashboard', 'https://grafana.com', 'Grafana', 'Sign-ups and errors on the day'),
  ],
};

/** The collection a colleague shares with Dana; the colleague added its links. */
export const COLLEAGUE_SHARE: DemoCollection = {
  name: 'Design system',
  description: 'Components, tokens and guidelines',
  color: '#e11d48',
  links: [
    link('Component library', 'https://www.figma.com', 'Figma', 'The source of truth for UI'),
    link('Storybook', 'https://storybook.js.org', 'Storybook', 'Live components in code'),
    link('Icons', 'https://lucide.dev', 'Lucide', 'The icon set we use'),
  ],
};

const FIRST_NAMES = [
  'Amara',
  'Ben',
  'Carmen',
  'Daniel',
  'Elif',
  'Felix',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Samir',
  'Tara',
  'Umar',
  'Vera',
  'Wei',
  'Ximena',
  'Yusuf',
  'Zoe',
  'Aiko',
  'Bruno',
  'Chloe',
  'Dmitri',
  'Emma',
  'Farah',
  'Gabriel',
  'Hannah',
  'Ivan',
  'Julia',
  'Kai',
  'Lena',
  'Mateo',
  'Nadia',
];

const LAST_NAMES = [
  'Okafor',
  'Schmidt',
  'Alvarez',
  'Kim',
  'Yilmaz',
  'Novak',
  'Chen',
  'Tanaka',
  'Moreau',
  'Berg',
  'Adeyemi',
  'Walsh',
  'Patel',
  'Cohen',
  'Ivanova',
  'Silva',
  'Murphy',
  'Rossi',
  'Haddad',
  'Singh',
  'Khan',
  'Lindqvist',
  'Zhang',
  'Garcia',
  'Demir',
  'Martin',
  'Sato',
  'Costa',
  'Dubois',
  'Petrov',
];

export interface DemoPerson {
  name: string;
  email: string;
}

/** `count` colleagues with distinct names and e-mails, always the same ones. */
export function colleagues(count: number): DemoPerson[] {
  const people: DemoPerson[] = [];
  const emails = new Set<string>();
  for (let i = 0; people.length < count; i += 1) {
    const first = FIRST_NAMES[i % FIRST_NAMES.length] ?? 'Alex';
    // A step coprime with the list length walks every surname before repeating a pair.
    const last = LAST_NAMES[(i * 7 + Math.floor(i / FIRST_NAMES.length)) % LAST_NAMES.length];
    const f = first.toLowerCase();
    const l = (last ?? 'Smith').toLowerCase();
    const styles = [`${f}.${l}`, `${f[0]}${l}`, `${f}${l[0]}`];
    const local = styles.find((s) => !emails.has(s)) ?? `${f}.${l}${i}`;
    emails.add(local);
    people.push({ name: `${first} ${last}`, email: `${local}@example.com` });
  }
  return people;
}

/**
 * What the demo's link checks have found (decision 0069), so that the marks, the list of
 * links that need attention and the console's broken links show out of the box. The
 * addresses are under `.example`, which never resolves: where the server can reach the
 * internet, its own checks agree.
 */
export const DEMO_LINK_HEALTH = {
  /**
   * Team links, broken: their team's editors and administrators see them. The curating
   * journeys mend the Sales and People tools ones, each its own (apps/web/e2e/curating.spec.ts).
   */
  broken: [
    { name: 'VPN setup guide', status: 404, days: 21 },
    { name: 'Price list', status: 404, days: 16 },
    { name: 'Partner portal', status: 500, days: 11 },
    { name: 'Onboarding checklist', status: 404, days: 8 },
    { name: 'Holiday calendar', status: 410, days: 6 },
  ],
  /** Colleagues' own links: quinn.zhang's, one moved and one broken; two more, broken. */
  colleagues: [
    {
      email: 'quinn.zhang@example.com',
      links: [
        link(
          'Expense reports',
          'http://expenses.northwind.example/',
          null,
          'Receipts and travel claims',
        ),
        link(
          'Team offsite photos',
          'https://photos.northwind.example/offsite',
          null,
          'From the spring offsite',
        ),
      ],
    },
    {
      email: 'zoe.martin@example.com',
      links: [link('Project notes', 'https://notes.northwind.example/projects', null, '')],
    },
    {
      email: 'aiko.alvarez@example.com',
      links: [link('Book club', 'https://books.northwind.example/club', null, 'This month')],
    },
  ],
  moved: { name: 'Expense reports', to: 'https://expenses.northwind.example/reports', days: 4 },
  colleagueBroken: [
    { name: 'Team offsite photos', status: 410, days: 9 },
    { name: 'Project notes', status: 404, days: 3 },
    { name: 'Book club', status: 404, days: 2 },
  ],
};
