# A small image with a static okf binary, run as a non-root user.
#   docker build -t okf .
#   docker run --rm -v "$PWD:/work" okf lint knowledge/
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Pure Go (modernc SQLite, no cgo), so the binary is static and runs on an empty base image. Built
# as .goreleaser.yaml builds a release (internal/adopt's test checks the two agree).
RUN CGO_ENABLED=0 go build -trimpath -tags urfave_cli_no_docs -ldflags "-s -w" -o /out/okf ./cmd/okf

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/okf /usr/local/bin/okf
USER nonroot:nonroot
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/okf"]
CMD ["--help"]
