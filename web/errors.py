"""The one refusal the services raise: bad input or an action that cannot be done now, said in
one translated sentence, with the HTTP status the page answers with.  Nothing was changed."""


class Refusal(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
