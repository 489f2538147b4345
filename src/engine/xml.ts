/**
 * The XML codec, for a contract that declares an XML media type (`application/xml`,
 * `text/xml`, any `+xml`): `createApp(contract, { engine: OPERATION_ENGINE, xml: XML_CODEC })`.
 * It is its own entry so that a Worker without XML does not bundle fast-xml-parser.
 */
export { XML_CODEC } from "./xml/codec";
