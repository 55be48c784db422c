/**
 * The tray icon: its picture, tooltip and menu come from trayState (src/main/desktop); this
 * file only hands them to Electron. The pictures are drawn at run time from the icon's shapes.
 */
import {
  Menu,
  nativeImage,
  Tray,
  type MenuItemConstructorOptions,
  type NativeImage,
} from 'electron';
import { renderIcon } from '#main/desktop/icon-art';
import { encodePng } from '#main/desktop/png';
import {
  TRAY_BADGES,
  type TrayAction,
  type TrayIconVariant,
  type TrayMenuItem,
  type TrayState,
} from '#main/desktop/tray-state';
import type { Logger } from '#main/logging/logger';

/** 16 px at 100 % (Windows, macOS), with sharper copies for 150 % and 200 % screens. */
const TRAY_SCALES = [
  { scaleFactor: 1, size: 16 },
  { scaleFactor: 1.5, size: 24 },
  { scaleFactor: 2, size: 32 },
] as const;

const images = new Map<TrayIconVariant, NativeImage>();

export function trayImage(variant: TrayIconVariant): NativeImage {
  let image = images.get(variant);
  if (!image) {
    image = nativeImage.createEmpty();
    for (const { scaleFactor, size } of TRAY_SCALES) {
      const png = encodePng(renderIcon(size, { margin: false, badge: TRAY_BADGES[variant] }));
      image.addRepresentation({ scaleFactor, width: size, height: size, buffer: png });
    }
    images.set(variant, image);
  }
  return image;
}

export interface TillTray {
  update(state: TrayState): void;
  /** false when the desktop refused a tray icon: a hidden window could not come back. */
  available(): boolean;
  destroy(): void;
}

function menuItem(
  item: TrayMenuItem,
  act: (action: TrayAction) => void,
): MenuItemConstructorOptions {
  switch (item.kind) {
    case 'separator':
      return { type: 'separator' };
    case 'label':
      return { label: item.label, enabled: false };
    case 'action':
      return { label: item.label, click: () => act(item.action) };
  }
}

export function createTillTray(act: (action: TrayAction) => void, logger: Logger): TillTray {
  let tray: Tray | null = null;
  try {
    tray = new Tray(trayImage('idle'));
    // A click shows the till (Windows, most Linux panels); macOS opens the menu instead.
    tray.on('click', () => act('show'));
  } catch (error) {
    logger.warn({ err: error }, 'no tray icon: closing the window will minimise it instead');
    tray = null;
  }
  let last: TrayState | null = null;
  return {
    update(state) {
      if (!tray || tray.isDestroyed()) return;
      if (last?.iconVariant !== state.iconVariant) tray.setImage(trayImage(state.iconVariant));
      if (last?.tooltip !== state.tooltip) tray.setToolTip(state.tooltip);
      if (JSON.stringify(last?.menu) !== JSON.stringify(state.menu)) {
        tray.setContextMenu(Menu.buildFromTemplate(state.menu.map((item) => menuItem(item, act))));
      }
      last = state;
    },
    available: () => tray !== null && !tray.isDestroyed(),
    destroy() {
      tray?.destroy();
      tray = null;
    },
  };
}
