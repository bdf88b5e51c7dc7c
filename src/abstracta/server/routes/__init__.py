"""The web app's routes by resource, one ``APIRouter`` per module (the FastAPI template's
``api/routes/``): ``chat`` (a match's chat and its room socket), ``live`` (the games in play to
watch), ``notices`` (Web Push subscriptions). ``deps`` holds what they share: who a request is
at a match."""
