"""Mastodon.py 2.3.3, unchanged, against twitterd: one step per command, each printing what it saw as one JSON
line for the Swift end-to-end tests (Tests/EndToEndTests/MastodonClientTests.swift) to assert on.

    python mastodon_py.py STEP [ARGS…]

The daemon's base URL comes from TW_BASE (http://127.0.0.1:PORT); the access token, once logged in, from
TW_TOKEN. Every client is built as the issue asks: version_check_mode="created" (an endpoint fails only if the
advertised version is older than the one that introduced it) and ratelimit_method="throw" (a 429 is an error,
never a sleep). A refusal is printed as {"refused": true, "status": HTTP status, "error": the server's text}.

The streaming steps print {"ready": true} once the stream is open (SSE: the 200 answer came; WebSocket: the
subscribe message went out), then wait for what they are waiting for, up to a minute, and print it.
"""

import json
import os
import queue
import sys
import threading

from mastodon import Mastodon, MastodonError, StreamListener

BASE = os.environ["TW_BASE"]
WAIT_SECONDS = 60


def client(token=None, client_id=None, client_secret=None):
    return Mastodon(
        client_id=client_id,
        client_secret=client_secret,
        access_token=token if token is not None else os.environ.get("TW_TOKEN"),
        api_base_url=BASE,
        version_check_mode="created",
        ratelimit_method="throw",
    )


def emit(value):
    print(json.dumps(value, default=str), flush=True)


def refusal(action):
    """Runs `action`; what the server answered when it refused, or {"refused": false}."""
    try:
        action()
    except MastodonError as error:
        arguments = error.args
        status = arguments[1] if len(arguments) > 1 else None
        text = arguments[3] if len(arguments) > 3 else str(error)
        return {"refused": True, "status": status, "error": text, "kind": type(error).__name__}
    return {"refused": False}


def status_facts(status):
    return {
        "id": str(status.id),
        "content": status.content,
        "in_reply_to_id": None if status.in_reply_to_id is None else str(status.in_reply_to_id),
        "visibility": status.visibility,
        "acct": status.account.acct,
        "reblog": None if status.reblog is None else str(status.reblog.id),
        "favourited": status.favourited,
        "reblogged": status.reblogged,
        "bookmarked": status.bookmarked,
        "favourites_count": status.favourites_count,
        "reblogs_count": status.reblogs_count,
    }


def login(email, password, scopes="read write follow push"):
    """Registers an app and logs in with the password grant, as Mastodon.py's README does."""
    scope_list = scopes.split()
    client_id, client_secret = Mastodon.create_app("twtest", scopes=scope_list, api_base_url=BASE)
    mastodon = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=BASE,
                        version_check_mode="created", ratelimit_method="throw")
    token = mastodon.log_in(email, password, scopes=scope_list)
    me = client(token=token).account_verify_credentials()
    emit({
        "client_id": client_id, "client_secret": client_secret, "token": token, "acct": me.acct, "id": str(me.id),
        "version": client(token=token).instance().version,
    })


def post(text, reply_to="", key="", visibility=""):
    """Posts twice with the same idempotency key when one is given: the second answer must be the same status."""
    mastodon = client()
    arguments = {"in_reply_to_id": reply_to or None, "idempotency_key": key or None, "visibility": visibility or None}
    first = mastodon.status_post(text, **arguments)
    facts = status_facts(first)
    if key:
        facts["again"] = str(mastodon.status_post(text, **arguments).id)
    emit(facts)


def pages(timeline, limit):
    """Pages a timeline with fetch_next to its end, as a client scrolling down does."""
    mastodon = client()
    fetch = {"home": mastodon.timeline_home, "public": mastodon.timeline_public}[timeline]
    page = fetch(limit=int(limit))
    ids, sizes, contents = [], [], []
    while page:
        sizes.append(len(page))
        ids += [str(status.id) for status in page]
        contents += [status.content for status in page]
        page = mastodon.fetch_next(page)
    emit({"ids": ids, "sizes": sizes, "contents": contents})


def interact(status_id):
    """Favourites, reblogs and bookmarks a status, then reads it and the bookmarks back."""
    mastodon = client()
    mastodon.status_favourite(status_id)
    reblog = mastodon.status_reblog(status_id)
    mastodon.status_bookmark(status_id)
    facts = status_facts(mastodon.status(status_id))
    facts["reblog_of"] = None if reblog.reblog is None else str(reblog.reblog.id)
    facts["bookmarks"] = [str(status.id) for status in mastodon.bookmarks()]
    facts["favourites"] = [str(status.id) for status in mastodon.favourites()]
    emit(facts)


def relationships(*account_ids):
    emit([
        {key: (str(value) if key == "id" else value) for key, value in relation.items()
         if key in ("id", "following", "followed_by", "blocking", "blocked_by", "muting")}
        for relation in client().account_relationships(list(account_ids))
    ])


def follow(account_id):
    emit({"following": client().account_follow(account_id).following})


def block(account_id):
    emit({"blocking": client().account_block(account_id).blocking})


def unblock(account_id):
    emit({"blocking": client().account_unblock(account_id).blocking})


def lists(account_id):
    """Makes a list, adds an account, reads the list's accounts and timeline, removes the account, deletes it."""
    mastodon = client()
    made = mastodon.list_create("close friends")
    mastodon.list_accounts_add(made.id, [account_id])
    members = [account.acct for account in mastodon.list_accounts(made.id)]
    titles = [entry.title for entry in mastodon.lists()]
    timeline = [status.account.acct for status in mastodon.timeline_list(made.id)]
    mastodon.list_accounts_delete(made.id, [account_id])
    after = [account.acct for account in mastodon.list_accounts(made.id)]
    mastodon.list_delete(made.id)
    emit({"id": str(made.id), "members": members, "titles": titles, "timeline": timeline, "after": after,
          "left": [entry.title for entry in mastodon.lists()]})


def conversations():
    emit([
        {"accounts": sorted(account.acct for account in conversation.accounts),
         "last": None if conversation.last_status is None else conversation.last_status.content,
         "last_visibility": None if conversation.last_status is None else conversation.last_status.visibility}
        for conversation in client().conversations()
    ])


def search(query):
    found = client().search_v2(query)
    emit({"accounts": [account.acct for account in found.accounts],
          "statuses": [str(status.id) for status in found.statuses],
          "hashtags": [tag.name for tag in found.hashtags]})


def notifications():
    mastodon = client()
    every = mastodon.notifications()
    mentions = mastodon.notifications(types=["mention"])
    no_follows = mastodon.notifications(exclude_types=["follow"])
    one = mastodon.notifications(id=every[0].id) if every else None
    # Dismissing the newest removes it alone; clearing removes the rest.
    if every:
        mastodon.notifications_dismiss(every[0].id)
    after_dismiss = mastodon.notifications()
    mastodon.notifications_clear()
    emit({"types": [entry.type for entry in every], "from": [entry.account.acct for entry in every],
          "mentions": [entry.type for entry in mentions], "no_follows": [entry.type for entry in no_follows],
          "one": None if one is None else one.type,
          "dismissed": [str(entry.id) for entry in every[:1]],
          "after_dismiss": [str(entry.id) for entry in after_dismiss],
          "after_clear": [str(entry.id) for entry in mastodon.notifications()]})


class Listener(StreamListener):
    def __init__(self):
        super().__init__()
        self.events = queue.Queue()

    def on_update(self, status):
        self.events.put({"event": "update", "id": str(status.id), "content": status.content,
                         "acct": status.account.acct})

    def on_notification(self, notification):
        self.events.put({"event": "notification", "type": notification.type})

    def on_abort(self, err):
        self.events.put({"event": "abort", "error": str(err)})

    def on_websocket_error(self, error, for_stream=None):
        self.events.put({"event": "websocket_error", "error": str(error)})


def open_stream(transport, listener):
    # A stream the server ends raises on the stream's own thread after the listener heard of it (on_abort): that
    # is the event these steps wait for, not a crash to print over their JSON lines.
    threading.excepthook = lambda arguments: None
    mastodon = client()
    if transport == "ws":
        handle = mastodon.stream_open_websocket(listener)
        mastodon.stream_user(listener, websocket_handle=handle)
        # Mastodon acknowledges no subscription; but the server answers a connection's messages in the order they
        # came, so the refusal of a stream that does not exist, sent next, comes once `user` is subscribed.
        handle.subscribe("no-such-stream", listener)
        barrier = listener.events.get(timeout=WAIT_SECONDS)
        if barrier["event"] != "websocket_error":
            raise RuntimeError(f"expected the refusal of no-such-stream, got {barrier}")
        return handle
    handle = mastodon.stream_user(listener, run_async=True, reconnect_async=False)
    # The SSE handle connects on its own thread; the stream is open once it holds the 200 answer or has ended.
    while handle.connection is None and handle._thread.is_alive():
        handle._thread.join(0.01)
    return handle


def stream(transport, expected):
    """Waits for an `update` whose content holds `expected` (a post the Swift test makes over JSON-RPC)."""
    listener = Listener()
    open_stream(transport, listener)
    emit({"ready": True})
    while True:
        try:
            event = listener.events.get(timeout=WAIT_SECONDS)
        except queue.Empty:
            emit({"event": "timeout"})
            return
        if event["event"] != "update" or expected in (event.get("content") or ""):
            emit(event)
            if event["event"] == "update":
                return


def stream_until_end(transport):
    """Waits for the server to end the stream (a revoked token's): the stream's thread ends, and the last thing
    the listener heard is told: an abort (a cut, a WebSocket closed) or nothing, `end` (SSE's clean end)."""
    listener = Listener()
    handle = open_stream(transport, listener)
    emit({"ready": True})
    thread = handle._thread
    thread.join(WAIT_SECONDS)
    if thread.is_alive():
        event = {"event": "timeout"}
    else:
        try:
            event = listener.events.get(timeout=1)
        except queue.Empty:
            event = {"event": "end"}
    emit({"ended": not thread.is_alive(), "last": event})


def revoke(client_id, client_secret):
    client(client_id=client_id, client_secret=client_secret).revoke_access_token()
    emit({"revoked": True})


def refused(action, *arguments):
    """Something the token in TW_TOKEN must not be allowed to do."""
    mastodon = client()
    actions = {
        "me": lambda: mastodon.account_verify_credentials(),
        "post": lambda: mastodon.status_post(arguments[0]),
        "delete": lambda: mastodon.status_delete(arguments[0]),
        "favourite": lambda: mastodon.status_favourite(arguments[0]),
        "reply": lambda: mastodon.status_post("a reply", in_reply_to_id=arguments[0]),
        "follow": lambda: mastodon.account_follow(arguments[0]),
        "status": lambda: mastodon.status(arguments[0]),
        "home": lambda: mastodon.timeline_home(),
    }
    emit(refusal(actions[action]))


def raw(method, path, host=None):
    """One plain request outside any client library: the Host header `host` (a DNS-rebinding page's, say) when
    given, the bearer token TW_TOKEN when set."""
    import http.client
    from urllib.parse import urlsplit
    address = urlsplit(BASE)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=WAIT_SECONDS)
    connection.putrequest(method, path, skip_host=host is not None)
    if host is not None:
        connection.putheader("Host", host)
    if os.environ.get("TW_TOKEN"):
        connection.putheader("Authorization", "Bearer " + os.environ["TW_TOKEN"])
    connection.endheaders()
    answer = connection.getresponse()
    body = answer.read().decode("utf-8", "replace")
    emit({"status": answer.status, "body": body[:200]})


def host(value, path="/api/v1/instance"):
    raw("GET", path, value)


STEPS = {
    "login": login, "post": post, "pages": pages, "interact": interact, "relationships": relationships,
    "follow": follow, "block": block, "unblock": unblock, "lists": lists, "conversations": conversations,
    "search": search, "notifications": notifications, "stream": stream, "stream-until-end": stream_until_end,
    "revoke": revoke, "refused": refused, "host": host, "raw": raw,
}

if __name__ == "__main__":
    STEPS[sys.argv[1]](*sys.argv[2:])
