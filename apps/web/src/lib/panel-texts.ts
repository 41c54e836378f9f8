import { registerPanelTexts } from './i18n';
import { enPanels } from './locales/en-panels';

/**
 * Imported for its effect by every module that shows a text of the panels (add, details,
 * members, search, settings, drag and drop), the setup screen or the invitation: the texts
 * arrive with the first of them, not with the first screen (decision 0063). The test
 * `first-screen-texts.test.ts` holds every such module to it.
 */
registerPanelTexts(enPanels);
