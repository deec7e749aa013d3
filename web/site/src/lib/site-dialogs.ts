import { shallowRef } from 'vue';

/** The dialogs any page can open (components/SiteDialogs.vue holds them): the report's sharing, the keyboard's help. */
export type SiteDialog = 'share' | 'keys';

/** The dialog on show, if any; one at a time. */
export const shownDialog = shallowRef<SiteDialog | null>(null);

export function openDialog(dialog: SiteDialog): void {
  shownDialog.value = dialog;
}
