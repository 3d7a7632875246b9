// The HTTP API's documentation, drawn by the vendored Swagger UI from this server's schema.
window.addEventListener("DOMContentLoaded", () => {
  window.SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#api" });
});
