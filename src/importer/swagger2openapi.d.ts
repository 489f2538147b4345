/** The one function of swagger2openapi (CommonJS, without types of its own) the importer calls. */
declare module "swagger2openapi" {
  interface ConvertOptions {
    /** Mend what the converter can (a missing parameter type, a bad `$ref`). */
    readonly patch?: boolean;
    /** Mark what it cannot convert with `x-s2o-warning` instead of throwing. */
    readonly warnOnly?: boolean;
    /** Never fetch or read the external `$ref`s (the importer has bundled them in). */
    readonly resolve?: boolean;
  }
  const converter: {
    convertObj(swagger: object, options: ConvertOptions): Promise<{ openapi: unknown }>;
  };
  export default converter;
}
