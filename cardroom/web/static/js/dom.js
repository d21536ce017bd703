// Small helpers to build DOM nodes without innerHTML: text is always text.

/**
 * h("button", {type: "button", class: "primary", onclick: fn}, "Join")
 * Attributes starting with "on" become listeners; `dataset` and `style` take objects;
 * false, null and undefined attributes are left out; children may be nested arrays.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else if (name === "style") {
      for (const [key, v] of Object.entries(value)) node.style.setProperty(key, v);
    } else if (name === "class") {
      node.className = value;
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

/** Replace every child of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** Read a form's named fields as an object of strings (checkboxes as booleans). */
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
    if (!el.name) continue;
    out[el.name] = el.type === "checkbox" ? el.checked : el.value.trim();
  }
  return out;
}

/** Say something to screen readers through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  region.textContent = "";
  // A new node each time, so that the same sentence twice is read twice.
  requestAnimationFrame(() => region.append(h("p", {}, text)));
  while (region.childElementCount > 5) region.firstElementChild.remove();
}
