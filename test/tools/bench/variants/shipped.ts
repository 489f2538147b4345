/** Variant 4: this service as shipped. */
export { default } from "../../../../src/index";
