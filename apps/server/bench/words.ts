// Word lists for the generated data set: names of people and of links. Fixed, so that the
// data set is the same on every machine.

const words = (text: string) => text.trim().split(/\s+/);

export const FIRST_NAMES = words(`
  Aaliyah Aaron Abdul Ada Adrian Agnes Ahmed Aiko Alejandro Alex Alice Amara Amir Ana Andrea
  Anil Anna Arjun Astrid Ayumi Beatriz Ben Bianca Bjorn Camille Carlos Carmen Chen Chiara
  Chloe Clara Daniel Daria Deepak Diego Dmitri Elena Elif Emeka Emil Emma Erik Esther Fatima
  Felix Fiona Francesca Gabriel Grace Hana Hannah Hassan Hiro Ines Ingrid Isaac Ivan Jakob
  Jamal Javier Jia Joao Jonas Julia Kai Kamala Karim Kemi Kenji Lars Layla Lea Leila Liam
  Lina Lucas Luis Maja Malik Marco Maria Mateo Maya Mei Mohammed Nadia Naomi Nikos Noah
  Nora Olga Omar Oscar Pablo Paula Pedro Priya Quinn Rafael Ravi Rosa Sakura Samir Sara
  Sebastian Sofia Sven Tara Theo Tomas Umar Valentina Vera Victor Wei Ximena Yara Yusuf Zoe
`);

export const LAST_NAMES = words(`
  Abe Adeyemi Ahmed Alvarez Andersen Araujo Bauer Becker Berg Bianchi Brown Campbell Chen
  Cohen Costa Cruz Demir Diaz Dubois Eriksson Fernandes Fischer Fontaine Garcia Gomez Gupta
  Haddad Hansen Hoffmann Hughes Ibrahim Ito Ivanova Jansen Jensen Johansson Jones Kaur Khan
  Kim Kowalski Kumar Larsen Laurent Lee Lehmann Lindqvist Lopez Martin Meyer Moreau Mori
  Muller Murphy Nakamura Nguyen Nielsen Novak Nowak Okafor Olsen Ortiz Park Patel Perez
  Petrov Popescu Reddy Reyes Richter Rossi Russo Sanchez Santos Sato Schmidt Schneider Shah
  Silva Singh Smith Suzuki Takahashi Tanaka Taylor Thomas Torres Vargas Wagner Walsh Wang
  Weber Williams Wilson Wong Wu Yamamoto Yilmaz Zhang Zhou Zimmermann
`);

/** Apps that links point into, with their domain. */
export const APPS: readonly (readonly [string, string])[] = [
  ['Jira', 'atlassian.net'],
  ['Confluence', 'atlassian.net'],
  ['GitHub', 'github.com'],
  ['Google Docs', 'docs.google.com'],
  ['Google Sheets', 'sheets.google.com'],
  ['Google Drive', 'drive.google.com'],
  ['Figma', 'figma.com'],
  ['Miro', 'miro.com'],
  ['Slack', 'slack.com'],
  ['Notion', 'notion.so'],
  ['Salesforce', 'salesforce.com'],
  ['HubSpot', 'hubspot.com'],
  ['Workday', 'workday.com'],
  ['ServiceNow', 'service-now.com'],
  ['Grafana', 'grafana.com'],
  ['Datadog', 'datadoghq.com'],
  ['PagerDuty', 'pagerduty.com'],
  ['Tableau', 'tableau.com'],
  ['Looker', 'looker.com'],
  ['Zendesk', 'zendesk.com'],
  ['Asana', 'asana.com'],
  ['Trello', 'trello.com'],
  ['SharePoint', 'sharepoint.com'],
  ['Power BI', 'powerbi.com'],
];

export const TOPICS = words(`
  Quarterly Onboarding Roadmap Release Incident Budget Hiring Security Compliance Customer
  Partner Product Marketing Finance Payroll Travel Benefits Training Platform Mobile Billing
  Analytics Support Infrastructure Design Research Legal Procurement Vendor Launch Sprint
  Capacity Retention Pricing Inventory Logistics Quality Audit Accessibility Localization
`);

export const NOUNS = words(`
  board dashboard report guide form tracker handbook checklist calendar playbook wiki
  runbook template policy overview backlog plan metrics portal directory
`);
