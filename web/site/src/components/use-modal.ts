import { createFocusTrap, type FocusTrap } from 'focus-trap';
import { onBeforeUnmount, onMounted, type Ref } from 'vue';

/**
 * Shows `dialog` as a modal once mounted: the page behind is inert, Escape closes
 * it and the browser returns the focus to where it was (the `<dialog>` element's
 * own behaviour), and focus-trap keeps Tab and Shift+Tab cycling inside it, which
 * the element alone does not (Tab leaves it for the browser's own controls).
 */
export function useModal(dialog: Ref<HTMLDialogElement | null>): void {
  let trap: FocusTrap | null = null;
  onMounted(() => {
    const element = dialog.value!;
    element.showModal();
    trap = createFocusTrap(element, {
      escapeDeactivates: false,
      allowOutsideClick: true,
      returnFocusOnDeactivate: false,
      fallbackFocus: element,
    });
    trap.activate();
  });
  onBeforeUnmount(() => trap?.deactivate());
}
