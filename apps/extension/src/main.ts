import { extensionApi } from './browser-api';
import { startPopup } from './popup';

const root = document.getElementById('popup');
if (root) void startPopup(root, { api: extensionApi() });
