-- wrk: every request carries the bearer token from $TOKEN.
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
