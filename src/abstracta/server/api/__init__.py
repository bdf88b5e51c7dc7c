"""The HTTP edge of the web app, shaped as FastAPI's full-stack template is (issue 40 §1): only
HTTP lives here; every rule is the match service's (:mod:`abstracta.server.service`) and the
play session's.

==============  ==============================================================================
module           what it holds
==============  ==============================================================================
deps             the dependencies: the match service (``request.app.state.service``), the seat
                 tokens and who acts, a body that must be empty, the browser's session header
errors           the one table turning domain refusals into statuses, the error body, the
                 exception handlers, the documented refusals of each route (``errors(...)``)
middleware       the body limit (413/408) and the answer to a bug (500), applied by ``security``
bodies           the request bodies: strict pydantic models, each validating a body once
models           the response models (what each route answers, checked by the tests)
routes/*         one ``APIRouter`` per resource: games, matches, acts, invitations, analysis,
                 bots, live (the WebSocket)
==============  ==============================================================================

:func:`abstracta.server.app.create_app` wires them. A request flows: middleware (request id,
Host, rate limit, body limit) → the route's dependencies (the service, the tokens) and body model
→ one call of the match service (the kernel loads, locks, has the session act, commits and
announces) → the answer (a model, or the view's bytes encoded once per revision and viewer).
"""
